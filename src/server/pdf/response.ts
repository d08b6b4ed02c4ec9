/**
 * A generated PDF as the browser should open it: shown in place under its own file name, and kept by
 * no cache — it holds the insured's data and is made anew for each viewer.
 */
export const pdfResponse = (bytes: Uint8Array, fileName: string): Response =>
  new Response(bytes as BodyInit, {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="${fileName}"`,
      'cache-control': 'private, no-store',
    },
  });
