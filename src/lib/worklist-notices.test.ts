import { describe, expect, it } from 'vitest';
import { parseWorklistNotice, touchesViewer, type WorklistAudience } from './worklist-notices';

describe('parseWorklistNotice', () => {
  it.each([
    ['worklist:venda:12:7', { whose: 'sale', companyId: 12, sellerId: 7 }],
    ['worklist:venda::7', { whose: 'sale', companyId: null, sellerId: 7 }],
    ['worklist:usuario:3', { whose: 'user', userId: 3 }],
    ['worklist:empresa:5', { whose: 'company', companyId: 5 }],
    ['worklist:equipe', { whose: 'staff' }],
  ])('%s', (payload, notice) => expect(parseWorklistNotice(payload)).toEqual(notice));

  it.each([
    'worklist:',
    'worklist:venda:12',
    'worklist:venda:12:',
    'worklist:venda:x:7',
    'worklist:venda:1:2:3',
    'worklist:usuario:',
    'worklist:usuario:0',
    'worklist:usuario:-1',
    'worklist:usuario:1e3',
    'worklist:empresa:99999999999999999',
    'worklist:equipe:1',
    'worklist:outra:1',
    'user:1',
  ])('%s is not a notice', (payload) => expect(parseWorklistNotice(payload)).toBeUndefined());
});

const seller: WorklistAudience = {
  userId: 7,
  sales: { kind: 'own', userId: 7 },
  notas: { kind: 'some', companyIds: [], userId: 7 },
  staff: false,
};
const manager: WorklistAudience = {
  userId: 8,
  sales: { kind: 'companies', userId: 8, companyIds: [12, 13] },
  notas: { kind: 'some', companyIds: [12], userId: null },
  staff: false,
};
const staff: WorklistAudience = { userId: 1, sales: { kind: 'all' }, notas: { kind: 'all' }, staff: true };
const nobody: WorklistAudience = {
  userId: 9,
  sales: { kind: 'none' },
  notas: { kind: 'some', companyIds: [], userId: null },
  staff: false,
};

describe('touchesViewer', () => {
  it('a sale: its seller, whoever sees its company, whoever sees every sale, the staff', () => {
    const sale = { whose: 'sale', companyId: 12, sellerId: 7 } as const;
    expect(touchesViewer(sale, seller)).toBe(true);
    expect(touchesViewer(sale, manager)).toBe(true);
    expect(touchesViewer(sale, staff)).toBe(true);
    expect(touchesViewer(sale, nobody)).toBe(false);
    expect(touchesViewer({ whose: 'sale', companyId: 14, sellerId: 6 }, manager)).toBe(false);
    expect(touchesViewer({ whose: 'sale', companyId: 14, sellerId: 6 }, seller)).toBe(false);
    // A sale made for no company is its seller's alone (and the staff's).
    expect(touchesViewer({ whose: 'sale', companyId: null, sellerId: 6 }, manager)).toBe(false);
    expect(touchesViewer({ whose: 'sale', companyId: null, sellerId: 8 }, manager)).toBe(true);
  });

  it('a user’s report or import: that user only', () => {
    expect(touchesViewer({ whose: 'user', userId: 7 }, seller)).toBe(true);
    expect(touchesViewer({ whose: 'user', userId: 7 }, manager)).toBe(false);
    expect(touchesViewer({ whose: 'user', userId: 7 }, staff)).toBe(false);
  });

  it('a company’s nota fiscal: whoever sees that company’s notas', () => {
    expect(touchesViewer({ whose: 'company', companyId: 12 }, manager)).toBe(true);
    expect(touchesViewer({ whose: 'company', companyId: 13 }, manager)).toBe(false);
    expect(touchesViewer({ whose: 'company', companyId: 13 }, staff)).toBe(true);
    expect(touchesViewer({ whose: 'company', companyId: 12 }, seller)).toBe(false);
  });

  it('the staff’s queues: the staff only', () => {
    expect(touchesViewer({ whose: 'staff' }, staff)).toBe(true);
    expect(touchesViewer({ whose: 'staff' }, manager)).toBe(false);
    expect(touchesViewer({ whose: 'staff' }, seller)).toBe(false);
  });
});
