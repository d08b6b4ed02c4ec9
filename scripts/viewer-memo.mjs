// The viewer memo's side in the server (src/server/boot/viewer-memo.ts decides what may be kept, for whom
// and until when; docs/decisions/044-viewer-memo.md): a signed-in answer that is a function of who
// asks — the homes, the BFF's user — is answered from memory, compressed once per encoding, without
// entering Astro, while the sessions it was rendered for are fresh and nothing it is made of changed.
import { ENCODERS } from './compress-whole.mjs';
import { sendKept, watchMarked } from './kept-answers.mjs';

export const VIEWER_MEMO_HEADER = 'x-portal-memo';

// Set by the bundle when the memo's module loads (the first page or API call): until then, nothing is kept.
const memo = () => globalThis[Symbol.for('portal.viewerMemo')];

export function viewerMemo() {
  return {
    /** The request's ticket (its key, sessions and the memo's version when asked), or undefined. */
    ticketOf: (req) => memo()?.ticketOf(req),
    /** Answers from memory the request of `ticket` when it can; true when it did. */
    answer(ticket, req, res) {
      const kept = ticket && memo().lookup(ticket);
      if (!kept) return false;
      sendKept(kept, req, res, ENCODERS);
      return true;
    },
    /** Keeps what Astro answers the request of `ticket`, when the answer said it may be. */
    watch(ticket, req, res) {
      if (!ticket || req.method !== 'GET') return;
      // The marker says which sessions the answer was judged on (src/server/boot/viewer-memo.ts judgedOnOf).
      watchMarked(res, VIEWER_MEMO_HEADER, (headers, identity, marker) =>
        memo().keep(ticket, { headers, bodies: { identity } }, undefined, marker),
      );
    },
  };
}
