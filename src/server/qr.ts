import QRCode from 'qrcode';

/**
 * A QR code as SVG markup (the `qrcode` package, decision 033): paths with fill and stroke attributes
 * only — no style attribute, no script — so it is inlined in a page under the CSP as it stands.
 */
export const qrSvg = (text: string, title: string): Promise<string> =>
  QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((svg) =>
    svg.replace('<svg ', `<svg role="img" aria-label="${title.replace(/[&<>"]/g, '')}" `),
  );
