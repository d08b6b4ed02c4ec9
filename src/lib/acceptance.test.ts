import { describe, expect, it } from 'vitest';
import { PRODUCTS } from './products/catalog';
import { TERMO_PRESENTE_PROPOSTA } from './legal/termo-presente-proposta';
import {
  ACCEPTANCE_DAYS,
  ACCEPTANCE_RULES,
  acceptanceClock,
  acceptanceDeadline,
  analyse,
  clockPhrase,
  clockSummary,
  proposalClock,
  resumedDeadline,
} from './acceptance';

const DAY_MS = 86_400_000;
const SENT = new Date('2026-11-23T13:00:00Z');

describe('analyse: the acceptance rules of each line, as data', () => {
  it.each([
    ['residencial', { construcao: 'alvenaria' }, 450_000_00, true],
    ['residencial', { construcao: 'mista' }, 450_000_00, false],
    ['residencial', { construcao: 'alvenaria' }, 1_500_000_00, true],
    ['residencial', { construcao: 'alvenaria' }, 1_500_000_01, false],
    ['vida', { profissao: 'administrativa', fumante: true }, 150_000_00, true],
    ['vida', { profissao: 'risco' }, 150_000_00, false],
    ['itens-pessoais', { usoProfissional: true }, 5_000_00, false],
    ['itens-pessoais', { usoProfissional: false }, 5_000_00, true],
    ['empresarial', { protecao: 'nenhuma' }, 100_000_00, false],
    ['agricola', {}, 3_000_000_00, true],
  ] as const)('%s %o with a largest sum of %i: straight through %s', (line, answers, capital, straight) => {
    expect(analyse(line, answers, [{ capital: 1_000_00 }, { capital }]).straightThrough).toBe(straight);
  });

  it('says every reason a proposal is referred, with the sums in reais', () => {
    expect(analyse('residencial', { construcao: 'mista' }, [{ capital: 2_000_000_00 }])).toEqual({
      straightThrough: false,
      reasons: [
        'Importância segurada de R$ 2.000.000,00 acima do limite de aceitação automática (R$ 1.500.000,00).',
        'Construção mista (alvenaria e madeira).',
      ],
    });
  });

  it('names, for every line, only questions and answers its products ask', () => {
    for (const [line, rule] of Object.entries(ACCEPTANCE_RULES)) {
      const questions = Object.values(PRODUCTS)
        .filter((product) => product.line === line)
        .flatMap((product) => [...product.cadastroQuestions, ...product.riskQuestions]);
      expect(questions.length, line).toBeGreaterThan(0);
      for (const { answer, equals } of rule.aggravating) {
        const question = questions.find((q) => q.name === answer);
        expect(question, `${line}.${answer}`).toBeDefined();
        if (question!.kind === 'boolean') expect(typeof equals).toBe('boolean');
        else
          expect(
            question!.options?.map((o) => o.value),
            `${line}.${answer}`,
          ).toContain(equals);
      }
    }
  });
});

describe('the 25-day clock', () => {
  it('runs out 25 days after the proposal is sent', () => {
    expect(acceptanceDeadline(SENT)).toEqual(new Date('2026-12-18T13:00:00Z'));
  });

  it('counts the days left, rounding a part of a day up, and none after the deadline', () => {
    const deadline = acceptanceDeadline(SENT);
    expect(acceptanceClock({ decided: false, deadline, suspendedAt: null }, SENT)).toEqual({
      state: 'running',
      deadline: deadline.toISOString(),
      daysLeft: 25,
    });
    expect(acceptanceClock({ decided: false, deadline, suspendedAt: null }, new Date(SENT.getTime() + 24.5 * DAY_MS))).toMatchObject({
      daysLeft: 1,
    });
    expect(acceptanceClock({ decided: false, deadline, suspendedAt: null }, new Date(SENT.getTime() + 30 * DAY_MS))).toMatchObject({
      daysLeft: 0,
    });
  });

  it('stands still while documents are awaited, and moves the deadline by the time it stood', () => {
    const deadline = acceptanceDeadline(SENT);
    const since = new Date(SENT.getTime() + 10 * DAY_MS);
    const clock = acceptanceClock({ decided: false, deadline, suspendedAt: since }, new Date(SENT.getTime() + 40 * DAY_MS));
    expect(clock).toEqual({ state: 'suspended', deadline: deadline.toISOString(), daysLeft: 15, since: since.toISOString() });
    expect(resumedDeadline(deadline, since, new Date(since.getTime() + 4 * DAY_MS))).toEqual(new Date(deadline.getTime() + 4 * DAY_MS));
    // A resumption dated before the suspension (clock skew between instances) never shortens the term.
    expect(resumedDeadline(deadline, since, new Date(since.getTime() - DAY_MS))).toEqual(deadline);
  });

  it('stops once the proposal is decided', () => {
    expect(acceptanceClock({ decided: true, deadline: acceptanceDeadline(SENT), suspendedAt: null }, SENT)).toEqual({ state: 'stopped' });
  });

  it('of a stored proposal: its status says whether it is decided (one rule for the page, the history and the queue)', () => {
    const deadline = acceptanceDeadline(SENT);
    const since = new Date(SENT.getTime() + 10 * DAY_MS);
    const at = new Date(SENT.getTime() + 3 * DAY_MS);
    expect(proposalClock({ status: 'EM_ANALISE', deadline, suspendedAt: null }, at)).toEqual(
      acceptanceClock({ decided: false, deadline, suspendedAt: null }, at),
    );
    expect(proposalClock({ status: 'AGUARDANDO_DOCUMENTOS', deadline, suspendedAt: since }, at)).toMatchObject({
      state: 'suspended',
      daysLeft: 15,
    });
    for (const status of ['ACEITA', 'RECUSADA'] as const)
      expect(proposalClock({ status, deadline, suspendedAt: null }, at)).toEqual({ state: 'stopped' });
  });
});

describe('clockPhrase', () => {
  const date = (iso: string) => iso.slice(0, 10);
  it.each([
    [
      { state: 'running', deadline: '2026-12-18T13:00:00.000Z', daysLeft: 22 },
      'Aceite em até 22 dias (até 2026-12-18); sem resposta da seguradora até lá, a proposta é aceita.',
    ],
    [
      { state: 'running', deadline: '2026-12-18T13:00:00.000Z', daysLeft: 1 },
      'Aceite em até 1 dia (até 2026-12-18); sem resposta da seguradora até lá, a proposta é aceita.',
    ],
    [
      { state: 'suspended', deadline: '2026-12-18T13:00:00.000Z', daysLeft: 15, since: '2026-12-03T13:00:00.000Z' },
      'Prazo de aceitação suspenso: aguardando documentos desde 2026-12-03 (restam 15 dias).',
    ],
    [{ state: 'stopped' }, undefined],
  ] as const)('%o', (clock, phrase) => expect(clockPhrase(clock, date)).toBe(phrase));
});

describe('clockSummary: the clock in a list row', () => {
  const date = (iso: string) => iso.slice(0, 10);
  it.each([
    [{ state: 'running', deadline: '2026-12-18T13:00:00.000Z', daysLeft: 22 }, 'Aceite em até 22 dias (até 2026-12-18)'],
    [{ state: 'running', deadline: '2026-12-18T13:00:00.000Z', daysLeft: 1 }, 'Aceite em até 1 dia (até 2026-12-18)'],
    [{ state: 'running', deadline: '2026-12-18T13:00:00.000Z', daysLeft: 0 }, 'Aceite até hoje (2026-12-18)'],
    [
      { state: 'suspended', deadline: '2026-12-18T13:00:00.000Z', daysLeft: 15, since: '2026-12-03T13:00:00.000Z' },
      'Prazo suspenso desde 2026-12-03: aguarda documentos (restam 15 dias)',
    ],
    [{ state: 'stopped' }, undefined],
  ] as const)('%o', (clock, phrase) => expect(clockSummary(clock, date)).toBe(phrase));

  it('says "hoje" on the proposal page too when no day is left', () => {
    expect(clockPhrase({ state: 'running', deadline: '2026-12-18T13:00:00.000Z', daysLeft: 0 }, date)).toBe(
      'Aceite até hoje (2026-12-18); sem resposta da seguradora até lá, a proposta é aceita.',
    );
  });
});

describe('the proposal’s terms', () => {
  // Issue 27: the terms the partner accepts said 15 days while the portal decides in 25.
  it('promise the acceptance clock the portal runs', () => {
    const text = TERMO_PRESENTE_PROPOSTA.sections.flatMap((s) => s.paragraphs).join(' ');
    expect(text).toContain(`em até ${ACCEPTANCE_DAYS} (`);
    expect(text).not.toMatch(/15 \(quinze\) dias/);
  });
});
