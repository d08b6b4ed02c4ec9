import { describe, expect, it } from 'vitest';
import { chatLinkBottom } from './chat-offset';

describe('chatLinkBottom', () => {
  it.each([
    // footer top, footer height, viewport height → bottom offset
    [1200, 120, 900, 80], // footer below the fold
    [900, 120, 900, 80], // footer just touching the bottom edge: not visible yet
    [850, 120, 900, 230], // 50 px visible
    [700, 120, 900, 300], // fully visible
    [-20, 120, 900, 280], // scrolled past its top: only 100 px remain visible
  ])('top %i, height %i, viewport %i → %i', (top, height, viewport, bottom) => expect(chatLinkBottom(top, height, viewport)).toBe(bottom));
});
