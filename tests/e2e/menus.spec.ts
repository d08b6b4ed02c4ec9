import { expect, type Locator } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, openDrawer, signIn, type DemoAccount } from './helpers';

/**
 * The side menu each demo account sees (SPEC §2, §6), read from the open drawer with every group
 * expanded. The server runs with PORTAL_ENV=TEST, so the non-production items are shown.
 *
 * The expected lists are written out by hand from the visibility table and the demo seed
 * (src/server/demo/seed.ts); they are deliberately NOT derived from src/lib/menus.ts.
 */

const EXPECTED: { account: DemoAccount; why: string; menu: string[] }[] = [
  {
    account: ACCOUNTS.legacySeller,
    why: 'legacy VENDEDOR group: offers, HISTORICO_VENDAS*, RELATORIO_GESTAO (view only)',
    menu: [
      'Home',
      // Ours (issue 31): every signed-in user's worklist.
      'Pendências',
      'Seguros › Ofertas',
      'Dados › Relatórios',
      'Dados › Métricas › Evolução de vendas',
      'Dados › Métricas › Atingimento de meta',
      'Dados › Relatório (teste)',
      'Campanhas › Biblioteca do parceiro',
      'Campanhas › Personalizados › Folder',
      'Campanhas › Personalizados › Gifs',
      'Conquista Premiada',
      // Documentos: Envio is never shown and Consulta needs DOCUMENTO_CONSULTA_E_DOWNLOAD → no group.
      'Meus Clientes › Apólices',
      'Meus Clientes › Renovações',
      // Financeiro (FINANCEIRO_INFORME_RENDIMENTO) and Acesso (HIERARQUIA, USUARIOS): not held.
      'Módulos em homologação › Novo relatório de vendas',
    ],
  },
  {
    account: ACCOUNTS.insurerAdmin,
    why: 'v2 ADMIN sees every item (hidden ones excepted)',
    menu: [
      'Home',
      // Ours (issue 31): every signed-in user's worklist.
      'Pendências',
      'Seguros › Ofertas',
      'Seguros › Análise de propostas',
      'Dados › Relatórios',
      'Dados › Métricas › Evolução de vendas',
      'Dados › Métricas › Atingimento de meta',
      'Campanhas › Biblioteca do parceiro',
      'Campanhas › Personalizados › Folder',
      'Campanhas › Personalizados › Gifs',
      'Conquista Premiada',
      'Documentos › Consulta e Download',
      'Meus Clientes › Apólices',
      'Meus Clientes › Renovações',
      'Meus Clientes › 2ª via de boleto',
      'Financeiro › Informe de rendimentos',
      'Financeiro › Comissões › Extrato',
      'Financeiro › Comissões › Nota Fiscal',
      'Acesso › Parceiro',
      'Acesso › Substabelecido',
      'Acesso › Ponto de Venda',
      'Acesso › Usuários › Cadastro',
      'Acesso › Usuários › Permissões',
      'Gestão › Log de Acesso',
    ],
  },
  {
    account: ACCOUNTS.partnerAdmin,
    why: 'PARCEIRO_ADMIN: every item listing PARCEIRO_ADMIN, operations not needed',
    menu: [
      'Home',
      // Ours (issue 31): every signed-in user's worklist.
      'Pendências',
      'Dados › Relatórios',
      'Dados › Métricas › Evolução de vendas',
      'Dados › Métricas › Atingimento de meta',
      'Campanhas › Biblioteca do parceiro',
      'Campanhas › Personalizados › Folder',
      'Campanhas › Personalizados › Gifs',
      'Conquista Premiada',
      'Documentos › Consulta e Download',
      'Meus Clientes › Apólices',
      'Meus Clientes › Renovações',
      'Meus Clientes › 2ª via de boleto',
      'Financeiro › Informe de rendimentos',
      'Financeiro › Comissões › Extrato',
      'Financeiro › Comissões › Nota Fiscal',
      'Acesso › Substabelecido',
      'Acesso › Ponto de Venda',
      'Acesso › Usuários › Cadastro',
      'Acesso › Usuários › Permissões',
    ],
  },
  {
    account: ACCOUNTS.partner,
    why: 'PARCEIRO with HISTORICO_COTACAO_PROPOSTA, METRICAS, APOLICE_VENDEDOR, BOLETOS_VENDEDOR',
    menu: [
      'Home',
      // Ours (issue 31): every signed-in user's worklist.
      'Pendências',
      'Dados › Métricas › Evolução de vendas',
      'Dados › Métricas › Atingimento de meta',
      'Conquista Premiada',
      // Apólices lists only PARCEIRO_ADMIN, but holding APOLICE_VENDEDOR shows it (SPEC §6, decision 007).
      'Meus Clientes › Apólices',
      'Meus Clientes › Renovações',
      'Meus Clientes › 2ª via de boleto',
      'Financeiro › Comissões › Extrato',
      'Financeiro › Comissões › Nota Fiscal',
    ],
  },
  {
    account: ACCOUNTS.subagent,
    why: 'SUBSTABELECIDO with HISTORICO_COTACAO_PROPOSTA, RELATORIO_VENDAS, GERENCIAR_USUARIOS',
    menu: ['Home', 'Pendências', 'Dados › Relatórios', 'Conquista Premiada', 'Acesso › Usuários › Cadastro'],
  },
];

/**
 * Every item of the menu as a path of titles, expanding each group (one group is open per level,
 * so a group is read while it is open and closes when its next sibling group opens).
 */
async function readMenu(list: Locator, parents: string[] = []): Promise<string[]> {
  const paths: string[] = [];
  const items = list.locator(':scope > li');
  const count = await items.count();
  for (let i = 0; i < count; i++) {
    const item = items.nth(i);
    const link = item.locator(':scope > a.menu-link');
    if ((await link.count()) === 1) {
      await expect(link).toBeVisible();
      const title = (await link.innerText()).replace('↗', '').trim();
      paths.push([...parents, title].join(' › '));
      continue;
    }
    const group = item.locator(':scope > button.menu-group-button');
    await expect(group, `item ${i} of "${parents.join(' › ') || 'Menu'}" is neither a link nor a group`).toHaveCount(1);
    await expect(group).toBeVisible();
    const title = (await group.locator('span').first().innerText()).trim();
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    const children = item.locator(':scope > div > ul');
    await expect(children).toBeVisible();
    const childPaths = await readMenu(children, [...parents, title]);
    expect(childPaths, `the group "${[...parents, title].join(' › ')}" is shown without children`).not.toHaveLength(0);
    paths.push(...childPaths);
  }
  return paths;
}

test.describe('side menu per profile (PORTAL_ENV=TEST)', () => {
  for (const { account, why, menu } of EXPECTED) {
    test(`${account.email} sees exactly its menu — ${why}`, async ({ page }) => {
      await signIn(page, account);
      const dialog = await openDrawer(page);
      const nav = dialog.getByRole('navigation', { name: 'Menu' });
      await expect(nav).toBeVisible();
      expect(await readMenu(nav.locator(':scope > ul'))).toEqual(menu);
    });
  }

  test('spot checks of the visibility rules', () => {
    // Guard the hand-written lists against an accidental edit: the headline rules of SPEC §6.
    const groups = (menu: string[]) => new Set(menu.map((p) => p.split(' › ')[0]));
    const [seller, admin, partnerAdmin, partner, subagent] = EXPECTED.map((e) => e.menu);
    expect([...groups(admin!)]).toEqual(expect.arrayContaining(['Seguros', 'Gestão', 'Acesso']));
    expect(admin).toContain('Acesso › Parceiro');
    expect([...groups(partnerAdmin!)]).toEqual(
      expect.arrayContaining(['Dados', 'Campanhas', 'Documentos', 'Meus Clientes', 'Financeiro', 'Acesso']),
    );
    expect(groups(partnerAdmin!).has('Seguros')).toBe(false);
    expect(partnerAdmin).not.toContain('Acesso › Parceiro');
    expect(groups(partner!).has('Campanhas')).toBe(false);
    expect(partner!.some((p) => p.includes('Relatórios'))).toBe(false);
    expect(partner).toContain('Meus Clientes › Apólices'); // an operation suffices without the profile
    expect(partner!.some((p) => p.startsWith('Documentos'))).toBe(false); // DOCUMENTOS not held
    expect(groups(seller!).has('Acesso')).toBe(false);
    expect(groups(subagent!).has('Seguros')).toBe(false);
    for (const menu of [seller, admin, partnerAdmin, partner, subagent]) expect(menu!.some((p) => p.endsWith('› Envio'))).toBe(false);
  });
});
