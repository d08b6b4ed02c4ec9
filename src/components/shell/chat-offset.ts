/**
 * SPEC §9: the floating chat link sits 80 px above the bottom of the window, and while the footer
 * is in view, the visible footer height + 180 px. (The portal's content keeps room for the link
 * parked there: --chat-link-footer-gap in styles/global.css is the same 180 px.)
 */
export function chatLinkBottom(footerTop: number, footerHeight: number, viewportHeight: number): number {
  const visible = Math.max(0, Math.min(footerTop + footerHeight, viewportHeight) - Math.max(footerTop, 0));
  return visible > 0 ? visible + 180 : 80;
}
