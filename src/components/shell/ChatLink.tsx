import { useEffect, useRef, useState } from 'react';
import { chatLinkBottom } from './chat-offset';

interface Props {
  centralAtendimento: string;
  chatWhatsapp: string;
}

const whatsappHref = (number: string) => `https://wa.me/55${number.replace(/\D/g, '')}`;
const telHref = (number: string) => `tel:${number.replace(/\D/g, '')}`;

/**
 * The floating chat link and its menu (shown when signed in), kept clear of the footer. The offset
 * is written through the CSSOM: the page's CSP refuses server-rendered `style` attributes.
 */
export function ChatLink({ centralAtendimento, chatWhatsapp }: Props) {
  const [open, setOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const footer = document.querySelector<HTMLElement>('.portal-footer');
    if (!footer) return;
    let frame = 0;
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const rect = footer.getBoundingClientRect();
        menuRef.current?.style.setProperty('bottom', `${chatLinkBottom(rect.top, rect.height, window.innerHeight)}px`);
      });
    };
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, []);

  useEffect(() => {
    if (!open) return;
    const close = (event: KeyboardEvent | MouseEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !menuRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('click', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('click', close);
    };
  }, [open]);

  return (
    <div className="chat-link" ref={menuRef} data-testid="chat-link">
      {open ? (
        <div className="chat-menu" id="chat-menu" role="menu" aria-label="Fale conosco">
          <a role="menuitem" href={whatsappHref(chatWhatsapp)} target="_blank" rel="noopener noreferrer">
            Chat no WhatsApp {chatWhatsapp}
          </a>
          <a role="menuitem" href={telHref(centralAtendimento)}>
            Central de atendimento {centralAtendimento}
          </a>
        </div>
      ) : null}
      <button
        type="button"
        className="chat-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="chat-menu"
        onClick={(event) => {
          event.stopPropagation();
          setOpen(!open);
        }}
      >
        <svg width="26" height="26" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
          <path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zm3 6a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z" />
        </svg>
        <span className="visually-hidden">Fale conosco</span>
      </button>
    </div>
  );
}
