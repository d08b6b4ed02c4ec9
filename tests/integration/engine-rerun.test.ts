import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The PostgreSQL rerun (`DATABASE_URL=… npm test -- unit`, scripts/test.mjs) runs tests/integration
 * only: the unit tests beside the code must never reach a database, or the second engine would not
 * test them. Whatever opens one — a fresh database, the boot's, a connection, a started portal —
 * belongs in tests/integration.
 */
const REACHES_A_DATABASE =
  /freshDatabase|openDatabase|server\/boot\/database|server\/db['/]|DATABASE_URL|startPortal|@electric-sql\/pglite|from 'pg'|fixtures\/(db|api|fuzz-api|instances|selling|grown|query-plans)'/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the unit tests beside the code', () => {
  it('never reach a database, so the PostgreSQL rerun may leave them out', () => {
    const files = testFiles('src');
    expect(files.length).toBeGreaterThan(50);
    const reaching = files.filter((file) => REACHES_A_DATABASE.test(readFileSync(file, 'utf8')));
    expect(reaching).toEqual([]);
  });
});
