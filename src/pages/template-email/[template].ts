import type { APIRoute } from 'astro';
import { renderTemplate, TEMPLATE_SAMPLES, type TemplateName } from '../../server/mail/templates';

/**
 * One e-mail template rendered with sample data, framed by /template-email. E-mail HTML needs inline
 * styles, so it gets a policy of its own: styles only, no scripts, framable by this site alone.
 */
export const GET: APIRoute = ({ params }) => {
  const name = params.template as TemplateName;
  if (!Object.hasOwn(TEMPLATE_SAMPLES, name)) return new Response(null, { status: 404 });
  const { html } = renderTemplate(name, TEMPLATE_SAMPLES[name].data as never);
  return new Response(html, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'",
      'x-frame-options': 'SAMEORIGIN',
    },
  });
};
