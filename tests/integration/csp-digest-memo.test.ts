import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cspDigestMemo, rememberCspDigests } from '../../scripts/csp-digest-memo.mjs';

/**
 * Issue 12: the build remembers the CSP digests Astro works out for a page's inline scripts and
 * styles (scripts/csp-digest-memo.mjs). Checked against the Astro installed here: the rewritten module
 * hashes a text once and answers exactly what Astro's own function answers.
 */
const encryption = join(dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'dist/core/encryption.js');
// Beside the original, so that its relative imports resolve; removed after.
const rewritten = encryption.replace(/\.js$/, `.memo-test-${process.pid}.js`);
afterAll(() => rmSync(rewritten, { force: true }));

type Digest = (data: string, algorithm: string) => Promise<string>;

describe('the CSP digest memory', () => {
  it('rewrites Astro’s module so that a text is hashed once, with the same digest as Astro’s', async () => {
    const source = readFileSync(encryption, 'utf8');
    const plugin = cspDigestMemo();
    expect(plugin.transform(source, encryption)?.code).toBe(rememberCspDigests(source));
    expect(plugin.transform(source, '/elsewhere/encryption.js')).toBeUndefined();

    writeFileSync(rewritten, rememberCspDigests(source));
    const original: { generateCspDigest: Digest } = await import(encryption);
    const remembered: { generateCspDigest: Digest } = await import(rewritten);
    const digest = vi.spyOn(crypto.subtle, 'digest');
    try {
      const style = 'h1{color:var(--color-brand)}';
      const first = await remembered.generateCspDigest(style, 'SHA-256');
      expect(await remembered.generateCspDigest(style, 'SHA-256')).toBe(first);
      expect(digest).toHaveBeenCalledTimes(1);
      expect(await remembered.generateCspDigest(style, 'SHA-512')).not.toBe(first);
      expect(await remembered.generateCspDigest('outro', 'SHA-256')).toBe(await original.generateCspDigest('outro', 'SHA-256'));
      expect(first).toBe(await original.generateCspDigest(style, 'SHA-256'));
    } finally {
      digest.mockRestore();
    }
  });

  it('fails the build when Astro’s function is not found, rather than hash at every request again', () => {
    expect(() => rememberCspDigests('export async function digest(data) {}')).toThrow(/generateCspDigest changed/);
  });
});
