import { z } from '../../../lib/zod';
import * as zm from 'zod/mini';
import { endpoint, type Context } from '../router';
import { ApiError } from '../errors';
import { forbidden, notFound } from '../../errors';
import { companyListQuery, suspensionSchema } from '../../../lib/partner-forms';
import {
  CNPJ_IN_PATH,
  COMPANY_STEPS,
  mayManagePartners,
  mayOpenSubs,
  nextStep,
  stepPath,
  type CompanyKind,
  type SectionKey,
} from '../../../lib/partners';
import { maskedDestination } from '../../../lib/cancellation';
import { companyActorOf, NOT_FOUND_MESSAGE, openRegistration } from '../../services/network/partners-company';
import { saveStep } from '../../services/network/partners-steps';
import { confirmRegistration } from '../../services/network/partners-confirm';
import { setCompanyStatus } from '../../services/network/partners-status';
import { listCompanies } from '../../services/network/partners-lists';
import { formErrors } from '../../../lib/user-admin';

/**
 * Partners and substabelecidos on the BFF (issue 17, decision 052), the v2 screens' calls: the list,
 * one company, each onboarding step saved to its draft, the confirmation (activation of a new one,
 * the edit of an active one) and the suspension. /v1/parceiros is the insurer's ADMIN's;
 * /v1/substabelecidos whoever opens the substabelecidos' pages, for the companies under their
 * partners. Who asks is checked before what they sent: anyone else gets 403 whatever the body.
 */

const BASES: Record<CompanyKind, string> = { PARCEIRO: '/v1/parceiros', SUBSTABELECIDO: '/v1/substabelecidos' };

async function actorFor(ctx: Context, kind: CompanyKind) {
  const actor = await companyActorOf(ctx.db, ctx.auth.user);
  if (kind === 'PARCEIRO' ? !mayManagePartners(actor) : !mayOpenSubs(actor))
    throw forbidden(
      kind === 'PARCEIRO'
        ? 'Apenas o administrador da seguradora gerencia parceiros.'
        : 'Você não tem permissão para gerenciar substabelecidos.',
    );
  return actor;
}

/** A CNPJ of an address: its 14 characters (a mask is read too); anything else is no company. */
const cnpjOf = (raw: string) => {
  const cnpj = raw.replace(/[./\-\s]/g, '').toUpperCase();
  if (!CNPJ_IN_PATH.test(cnpj)) throw notFound(NOT_FOUND_MESSAGE);
  return cnpj;
};

const listQuery = z.object({
  cnpj: z.string().optional(),
  nome: z.string().optional(),
  status: z.string().optional(),
  pagina: z.string().optional(),
});
const actionQuery = z.object({
  acao: z.enum(['novo', 'editar'], { error: 'Ação inválida: use novo ou editar.' }).default('novo'),
});
const cnpjParam = z.object({ cnpj: z.string() });
const stepParams = z.object({ cnpj: z.string(), tela: z.string(), subetapa: z.string() });
const statusBody = zm.object({
  situacao: zm.enum(['SUSPENSO', 'ATIVO'], { error: 'Situação inválida: use SUSPENSO ou ATIVO.' }),
  motivo: zm.optional(zm.unknown()),
});

function parsed<T extends zm.ZodMiniType>(schema: T, input: unknown): zm.output<T> {
  const result = zm.safeParse(schema, input ?? {});
  if (!result.success) {
    const errors = formErrors(result.error.issues);
    throw new ApiError(400, Object.values(errors)[0]?.[0] ?? 'Requisição inválida', errors);
  }
  return result.data;
}

function companyEndpoints(kind: CompanyKind) {
  const base = BASES[kind];
  return [
    endpoint({
      method: 'GET',
      path: base,
      auth: ['v2'],
      query: listQuery,
      async handle(ctx) {
        const actor = await actorFor(ctx, kind);
        return listCompanies(ctx.db, actor, kind, parsed(companyListQuery, ctx.query));
      },
    }),
    endpoint({
      method: 'GET',
      path: `${base}/:cnpj`,
      auth: ['v2'],
      params: cnpjParam,
      async handle(ctx) {
        const actor = await actorFor(ctx, kind);
        const opened = await openRegistration(ctx.db, actor, kind, { cnpj: cnpjOf(ctx.params.cnpj), action: 'visualizar' });
        if (opened.kind !== 'ok') throw notFound(NOT_FOUND_MESSAGE);
        const { company, draft } = opened.registration;
        // Never the whole account: the review shows the bank, the branch and the last digits.
        const { conta, ...sections } = draft;
        return {
          cnpj: company!.cnpj,
          tipo: company!.tipo,
          situacao: company!.status,
          parceiro: company!.parent ? { cnpj: company!.parent.cnpj, nome: company!.parent.nomeFantasia } : null,
          motivoSuspensao: company!.motivoSuspensao,
          ...sections,
          conta: conta ? maskedDestination(conta) : null,
          administradores: company!.administradores,
          usuarios: company!.usuarios,
        };
      },
    }),
    endpoint({
      method: 'PUT',
      path: `${base}/:cnpj/etapas/:tela/:subetapa`,
      auth: ['v2'],
      params: stepParams,
      query: actionQuery,
      body: z.unknown(),
      async handle(ctx) {
        const actor = await actorFor(ctx, kind);
        const cnpj = cnpjOf(ctx.params.cnpj);
        const step = COMPANY_STEPS.find((s) => s.screen === ctx.params.tela && s.subetapa === ctx.params.subetapa);
        if (!step || step.key === 'revisao') throw notFound('Etapa não encontrada.');
        const key = step.key as SectionKey;
        const body = ctx.body as Record<string, unknown> | undefined;
        // The offers step sends its list under `ofertas`, as the rest of the body is the step's fields.
        const input = key === 'ofertas' ? (body && typeof body === 'object' ? body.ofertas : undefined) : body;
        const saved = await saveStep(ctx.db, actor, kind, { cnpj, action: ctx.query.acao }, key, input);
        return { cnpj: saved.cnpj, proximaEtapa: stepPath(kind, nextStep(key), saved.cnpj, ctx.query.acao), mensagem: 'Etapa salva.' };
      },
    }),
    endpoint({
      method: 'POST',
      path: `${base}/:cnpj/confirmacao`,
      auth: ['v2'],
      params: cnpjParam,
      query: actionQuery,
      body: z.unknown(),
      async handle(ctx) {
        const actor = await actorFor(ctx, kind);
        const done = await confirmRegistration(ctx.db, actor, kind, cnpjOf(ctx.params.cnpj), ctx.query.acao, ctx.ip);
        return {
          cnpj: done.cnpj,
          situacao: 'ATIVO',
          mensagem:
            done.notice === 'cadastrado'
              ? 'Cadastro concluído: empresa ativa; o administrador recebeu o e-mail de primeiro acesso.'
              : 'Alterações salvas.',
        };
      },
    }),
    endpoint({
      method: 'PUT',
      path: `${base}/:cnpj/situacao`,
      auth: ['v2'],
      params: cnpjParam,
      body: z.unknown(),
      async handle(ctx) {
        const actor = await actorFor(ctx, kind);
        const cnpj = cnpjOf(ctx.params.cnpj);
        const body = parsed(statusBody, ctx.body);
        const suspending = body.situacao === 'SUSPENSO';
        const motivo = suspending ? parsed(suspensionSchema, { motivo: body.motivo }).motivo : null;
        const result = await setCompanyStatus(ctx.db, actor, kind, cnpj, suspending ? 'suspender' : 'reativar', motivo, ctx.ip);
        return { cnpj, situacao: body.situacao, usuariosDesconectados: result.signedOut };
      },
    }),
  ];
}

export const partnerEndpoints = [...companyEndpoints('PARCEIRO'), ...companyEndpoints('SUBSTABELECIDO')];
