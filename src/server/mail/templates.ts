/**
 * The portal's e-mails as templates: each renders a subject, a plain-text body and an HTML body from
 * its data. /template-email previews them with sample data.
 */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(
  title: string,
  paragraphs: string[],
  action?: { label: string; href: string },
  /** Issue 31: a reminder's way to stop the reminders (LGPD), under the message. */
  optOut?: string,
): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.href)}" style="background:#0b4f9c;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>`
    : '';
  return `<!doctype html><html lang="pt-BR"><body style="margin:0;background:#f3f5f8;font-family:Arial,sans-serif;color:#1d2733">
<div style="max-width:560px;margin:0 auto;padding:32px 24px;background:#fff">
<p style="margin:0 0 24px;font-weight:700;color:#0b4f9c">Portal de Parceiros</p>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}${button}
<p style="margin:32px 0 0;font-size:12px;color:#5b6776">Esta é uma mensagem automática. Não responda a este e-mail.</p>${
    optOut
      ? `<p style="margin:8px 0 0;font-size:12px;color:#5b6776">Não quer mais receber lembretes? <a href="${escapeHtml(optOut)}" style="color:#0b4f9c">Parar de receber lembretes</a>. Os avisos obrigatórios do seguro continuam sendo enviados.</p>`
      : ''
  }
</div></body></html>`;
}

/** What the seller's cancellation notice says the insured was told (issue 42: a refund that did not exist). */
const INSURED_TOLD = {
  RESTITUICAO: 'O segurado foi avisado por e-mail de quando e como recebe a restituição.',
  CANCELAMENTO: 'O segurado foi avisado por e-mail do cancelamento; não há restituição.',
  NINGUEM: 'O segurado não tem e-mail cadastrado e não foi avisado: avise-o do cancelamento.',
} as const;

export const TEMPLATES = {
  'redefinir-senha': (data: { nome: string; link: string; validadeMinutos: number }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      'Recebemos um pedido para redefinir a senha do seu acesso ao Portal de Parceiros.',
      `O link vale por ${data.validadeMinutos} minutos e pode ser usado uma única vez. Se você não fez este pedido, ignore este e-mail: sua senha continua a mesma.`,
    ];
    return {
      subject: 'Redefinição de senha — Portal de Parceiros',
      text: `${paragraphs.join('\n\n')}\n\nRedefinir senha: ${data.link}\n`,
      html: layout('Redefinição de senha', paragraphs, { label: 'Redefinir senha', href: data.link }),
    };
  },
  'codigo-validacao': (data: { nome: string; codigo: string; link: string; validadeHoras: number }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      'Seu acesso ao Portal de Parceiros foi criado. Para o primeiro acesso, use o código de validação abaixo e cadastre a sua senha.',
      `Código de validação: ${data.codigo}`,
      `O código vale por ${data.validadeHoras} horas.`,
    ];
    return {
      subject: 'Código de validação — primeiro acesso ao Portal de Parceiros',
      text: `${paragraphs.join('\n\n')}\n\nCadastrar senha: ${data.link}\n`,
      html: layout('Primeiro acesso', paragraphs, { label: 'Cadastrar senha', href: data.link }),
    };
  },
  'senha-alterada': (data: { nome: string; link: string }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      'A senha do seu acesso ao Portal de Parceiros foi alterada agora. As outras sessões abertas foram encerradas.',
      'Se não foi você, redefina a senha imediatamente e avise o administrador da sua empresa.',
    ];
    return {
      subject: 'Sua senha foi alterada — Portal de Parceiros',
      text: `${paragraphs.join('\n\n')}\n\nAcessar o portal: ${data.link}\n`,
      html: layout('Senha alterada', paragraphs, { label: 'Acessar o portal', href: data.link }),
    };
  },
  // Issue 42 (decision 073): the owner is told when someone types wrong codes for their account.
  'primeiro-acesso-tentativas': (data: { nome: string; link: string }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      'Alguém digitou códigos de validação errados para o primeiro acesso da sua conta no Portal de Parceiros.',
      'Se foi você, confira o código do e-mail mais recente ou peça um novo: o código novo vale na hora, sem esperar.',
      'Se não foi você, não é preciso fazer nada: sem o código enviado a este e-mail ninguém cadastra a sua senha.',
    ];
    return {
      subject: 'Tentativas no seu primeiro acesso — Portal de Parceiros',
      text: `${paragraphs.join('\n\n')}\n\nPedir um novo código: ${data.link}\n`,
      html: layout('Tentativas no seu primeiro acesso', paragraphs, { label: 'Pedir um novo código', href: data.link }),
    };
  },
  'segundo-fator-tentativas': (data: { nome: string; link: string }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      'Alguém informou a senha correta da sua conta no Portal de Parceiros e errou várias vezes o código da verificação em duas etapas.',
      'Se não foi você, a sua senha está com outra pessoa: troque-a agora e avise o administrador da sua empresa. O código do seu aplicativo continua protegendo a conta.',
      'Se foi você, confira o horário do celular e use o código atual do aplicativo, ou um código de recuperação.',
    ];
    return {
      subject: 'Tentativas na verificação em duas etapas — Portal de Parceiros',
      text: `${paragraphs.join('\n\n')}\n\nTrocar a senha: ${data.link}\n`,
      html: layout('Tentativas na verificação em duas etapas', paragraphs, { label: 'Trocar a senha', href: data.link }),
    };
  },
  'apolice-emitida-vendedor': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    segurado: string;
    link: string;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `A proposta de ${data.produto} de ${data.segurado} foi aceita e a apólice nº ${data.nrApolice} foi emitida.`,
      'No portal você encontra a apólice em PDF, as parcelas com boleto e Pix e o andamento dos pagamentos.',
    ];
    return {
      subject: `Apólice ${data.nrApolice} emitida — ${data.segurado}`,
      text: `${paragraphs.join('\n\n')}\n\nVer a apólice: ${data.link}\n`,
      html: layout('Apólice emitida', paragraphs, { label: 'Ver a apólice', href: data.link }),
    };
  },
  'apolice-emitida-segurado': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    vigencia: string;
    parceiro: string;
    link: string;
    validadeDias: number;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `Seu seguro ${data.produto} foi contratado por meio de ${data.parceiro}: a apólice nº ${data.nrApolice} vale de ${data.vigencia}.`,
      `Guarde a sua apólice: o link abaixo abre o documento em PDF e vale por ${data.validadeDias} dias. Os boletos e o Pix de cada parcela estão com o seu parceiro.`,
      'Dúvidas, reclamações e sinistros: fale com a central de atendimento da seguradora, indicada na apólice.',
    ];
    return {
      subject: `Sua apólice de seguro ${data.produto} nº ${data.nrApolice}`,
      text: `${paragraphs.join('\n\n')}\n\nBaixar a apólice: ${data.link}\n`,
      html: layout('Sua apólice foi emitida', paragraphs, { label: 'Baixar a apólice (PDF)', href: data.link }),
    };
  },
  // Issue 27: the insured hears of every change to their policy, and of when and how a refund is paid.
  'dados-alterados-segurado': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    quando: string;
    alterados: string;
    parceiro: string;
    /** This copy goes to the address the policy had before: it is no longer the one used. */
    enderecoAnterior: boolean;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `Os dados de contato da sua apólice de seguro ${data.produto} nº ${data.nrApolice} foram alterados em ${data.quando}, por meio de ${data.parceiro}: ${data.alterados}.`,
      ...(data.enderecoAnterior
        ? ['Este aviso vai também para o e-mail que a apólice tinha antes. Os próximos avisos do seguro irão para o novo e-mail.']
        : []),
      'Se você não pediu esta alteração, fale já com a central de atendimento da seguradora, indicada na apólice.',
    ];
    return {
      subject: `Dados de contato alterados — apólice ${data.nrApolice}`,
      text: `${paragraphs.join('\n\n')}\n`,
      html: layout('Seus dados de contato foram alterados', paragraphs),
    };
  },
  'cancelamento-segurado': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    nrEndosso: string;
    /** What was cancelled, as a sentence's subject: 'A sua apólice…' or 'As coberturas X e Y da sua apólice…'. */
    oQue: string;
    plural: boolean;
    aPartirDe: string;
    porQue: string;
    /** The refund, when something comes back. */
    restituicao: { valor: string; ate: string; destino: string } | null;
    /** Whether anything had been paid: with nothing paid, nothing "covers" a period (issue 42). */
    pago: boolean;
    parcelas: string;
    parceiro: string;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `${data.oQue} ${data.plural ? 'foram canceladas' : 'foi cancelada'} a partir de ${data.aPartirDe}, ${data.porQue}. Endosso nº ${data.nrEndosso}.`,
      data.restituicao
        ? `Você receberá a restituição de ${data.restituicao.valor} até ${data.restituicao.ate}, em ${data.restituicao.destino}.`
        : data.pago
          ? 'Não há valor a restituir: o que foi pago cobre o período em que o seguro esteve em vigor.'
          : 'Não há valor a restituir: nada foi pago nesta apólice.',
      data.parcelas,
      `Dúvidas: fale com ${data.parceiro} ou com a central de atendimento da seguradora, indicada na apólice.`,
    ];
    return {
      subject: `Cancelamento da apólice ${data.nrApolice} — endosso ${data.nrEndosso}`,
      text: `${paragraphs.join('\n\n')}\n`,
      html: layout('Cancelamento do seu seguro', paragraphs),
    };
  },
  'cancelamento-vendedor': (data: {
    nome: string;
    nrApolice: string;
    segurado: string;
    nrEndosso: string;
    aPartirDe: string;
    restituicao: string;
    estorno: string;
    link: string;
    /** What the insured was told by e-mail: of the refund, of the cancellation alone, or nothing (no e-mail on file). */
    seguradoAvisado: 'RESTITUICAO' | 'CANCELAMENTO' | null;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `A apólice nº ${data.nrApolice} de ${data.segurado} teve um cancelamento a partir de ${data.aPartirDe} (endosso nº ${data.nrEndosso}).`,
      `Restituição ao segurado: ${data.restituicao}. Comissão a estornar: ${data.estorno}.`,
      INSURED_TOLD[data.seguradoAvisado ?? 'NINGUEM'],
    ];
    return {
      subject: `Cancelamento da apólice ${data.nrApolice} — ${data.segurado}`,
      text: `${paragraphs.join('\n\n')}\n\nVer a apólice: ${data.link}\n`,
      html: layout('Cancelamento de apólice', paragraphs, { label: 'Ver a apólice', href: data.link }),
    };
  },
  'cancelamento-agendado-segurado': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    oQue: string;
    plural: boolean;
    aPartirDe: string;
    destino: string;
    parceiro: string;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `${data.oQue} ${data.plural ? 'serão canceladas' : 'será cancelada'} a partir de ${data.aPartirDe}, como foi pedido. Até lá o seguro continua em vigor, e as parcelas que vencem até esse dia continuam devidas.`,
      `Nesse dia calculamos a restituição, se houver, pelo que estiver pago, e a pagamos em até 10 dias úteis em ${data.destino}.`,
      `Se mudar de ideia antes de ${data.aPartirDe}, fale com ${data.parceiro}: o cancelamento agendado pode ser desfeito.`,
    ];
    return {
      subject: `Cancelamento agendado — apólice ${data.nrApolice}`,
      text: `${paragraphs.join('\n\n')}\n`,
      html: layout('Cancelamento agendado', paragraphs),
    };
  },
  'cancelamento-desfeito-segurado': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    aPartirDe: string;
    parceiro: string;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `O cancelamento agendado para ${data.aPartirDe} da sua apólice de seguro ${data.produto} nº ${data.nrApolice} foi desfeito por meio de ${data.parceiro}. O seguro continua em vigor, com as mesmas parcelas.`,
      'Se você não pediu isso, fale com a central de atendimento da seguradora, indicada na apólice.',
    ];
    return {
      subject: `Cancelamento desfeito — apólice ${data.nrApolice}`,
      text: `${paragraphs.join('\n\n')}\n`,
      html: layout('Seu seguro continua em vigor', paragraphs),
    };
  },
  // Issue 31: the insured kept informed — reminders (each with the way to stop them) and what the
  // partner sends from the policy page. lib/insured-messages.ts says when each reminder goes.
  'lembrete-vencimento': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    numero: number;
    vencimento: string;
    valor: string;
    link: string;
    validadeDias: number;
    descadastro: string;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `A ${data.numero}ª parcela do seu seguro ${data.produto} (apólice nº ${data.nrApolice}), de ${data.valor}, vence em ${data.vencimento}.`,
      `O link abaixo abre o boleto e o Pix da parcela, com a linha digitável, o Pix copia e cola e o boleto em PDF. Ele vale por ${data.validadeDias} dias. Se já pagou, desconsidere este lembrete.`,
    ];
    return {
      subject: `Lembrete: a ${data.numero}ª parcela do seu seguro vence em ${data.vencimento}`,
      text: `${paragraphs.join('\n\n')}\n\nVer o boleto e o Pix: ${data.link}\n\nParar de receber lembretes: ${data.descadastro}\n`,
      html: layout('Sua parcela vence em breve', paragraphs, { label: 'Ver o boleto e o Pix', href: data.link }, data.descadastro),
    };
  },
  'aviso-atraso': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    numero: number;
    vencimentoOriginal: string;
    vencimento: string;
    valor: string;
    parceiro: string;
    link: string;
    validadeDias: number;
    descadastro: string;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `Não identificamos o pagamento da ${data.numero}ª parcela do seu seguro ${data.produto} (apólice nº ${data.nrApolice}), que venceu em ${data.vencimentoOriginal}.`,
      `Emitimos a 2ª via com vencimento em ${data.vencimento}, no valor de ${data.valor}, com multa e juros proporcionais aos dias de atraso. O link abaixo abre o boleto e o Pix e vale por ${data.validadeDias} dias.`,
      `Se já pagou, desconsidere este aviso. Dúvidas: fale com ${data.parceiro}.`,
    ];
    return {
      subject: `Parcela vencida — 2ª via da ${data.numero}ª parcela da apólice ${data.nrApolice}`,
      text: `${paragraphs.join('\n\n')}\n\nVer a 2ª via: ${data.link}\n\nParar de receber lembretes: ${data.descadastro}\n`,
      html: layout('Sua parcela está vencida', paragraphs, { label: 'Ver a 2ª via (boleto e Pix)', href: data.link }, data.descadastro),
    };
  },
  'aviso-fim-vigencia': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    fimVigencia: string;
    parceiro: string;
    /** How to reach the partner: 'e-mail x, telefone y' (the company's commercial contact, or the seller). */
    contato: string;
    descadastro: string;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `Seu seguro ${data.produto} (apólice nº ${data.nrApolice}) termina em ${data.fimVigencia}. Depois dessa data você deixa de estar coberto.`,
      `Para renovar e continuar protegido, fale com ${data.parceiro}: ${data.contato}.`,
    ];
    return {
      subject: `Seu seguro ${data.produto} termina em ${data.fimVigencia}`,
      text: `${paragraphs.join('\n\n')}\n\nParar de receber lembretes: ${data.descadastro}\n`,
      html: layout('Seu seguro está perto do fim', paragraphs, undefined, data.descadastro),
    };
  },
  'boleto-segurado': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    numero: number;
    vencimento: string;
    valor: string;
    parceiro: string;
    link: string;
    validadeDias: number;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `${data.parceiro} enviou a você o boleto e o Pix da ${data.numero}ª parcela do seu seguro ${data.produto} (apólice nº ${data.nrApolice}): ${data.valor}, vencimento em ${data.vencimento}.`,
      `O link abaixo abre a linha digitável, o Pix copia e cola e o boleto em PDF. Ele vale por ${data.validadeDias} dias.`,
    ];
    return {
      subject: `Boleto e Pix da ${data.numero}ª parcela — apólice ${data.nrApolice}`,
      text: `${paragraphs.join('\n\n')}\n\nVer o boleto e o Pix: ${data.link}\n`,
      html: layout('Boleto e Pix da sua parcela', paragraphs, { label: 'Ver o boleto e o Pix', href: data.link }),
    };
  },
  'apolice-segurado': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    vigencia: string;
    parceiro: string;
    link: string;
    validadeDias: number;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `${data.parceiro} enviou a você a apólice nº ${data.nrApolice} do seu seguro ${data.produto}, vigente de ${data.vigencia}.`,
      `O link abaixo abre a apólice em PDF e vale por ${data.validadeDias} dias.`,
    ];
    return {
      subject: `Sua apólice de seguro ${data.produto} nº ${data.nrApolice}`,
      text: `${paragraphs.join('\n\n')}\n\nBaixar a apólice: ${data.link}\n`,
      html: layout('Sua apólice', paragraphs, { label: 'Baixar a apólice (PDF)', href: data.link }),
    };
  },
  'restituicao-paga-segurado': (data: {
    nome: string;
    nrApolice: string;
    produto: string;
    valor: string;
    /** What is given back: 'do cancelamento da sua apólice', 'do valor pago a mais na 1ª parcela da sua apólice' (decision 074). */
    motivo: string;
    destino: string;
    pagaEm: string;
    comprovante: string;
    parceiro: string;
  }): RenderedEmail => {
    const paragraphs = [
      `Olá, ${data.nome}.`,
      `Pagamos em ${data.pagaEm} a restituição de ${data.valor} ${data.motivo} de seguro ${data.produto} nº ${data.nrApolice}, em ${data.destino}.`,
      `Comprovante da transferência: ${data.comprovante}. O valor aparece na sua conta conforme o prazo do seu banco.`,
      `Se o valor não chegar em até 2 dias úteis, fale com ${data.parceiro} ou com a central de atendimento da seguradora, indicada na apólice.`,
    ];
    return {
      subject: `Restituição paga — apólice ${data.nrApolice}`,
      text: `${paragraphs.join('\n\n')}\n`,
      html: layout('Sua restituição foi paga', paragraphs),
    };
  },
} as const;

export type TemplateName = keyof typeof TEMPLATES;

/** Sample data for the preview page. */
export const TEMPLATE_SAMPLES: { [K in TemplateName]: { title: string; data: Parameters<(typeof TEMPLATES)[K]>[0] } } = {
  'redefinir-senha': {
    title: 'Redefinição de senha',
    data: { nome: 'Maria Oliveira', link: 'https://portal.exemplo/redefinir-senha?token=exemplo', validadeMinutos: 60 },
  },
  'codigo-validacao': {
    title: 'Código de validação (primeiro acesso)',
    data: { nome: 'Maria Oliveira', codigo: '482913', link: 'https://portal.exemplo/cadastro-login', validadeHoras: 24 },
  },
  'senha-alterada': {
    title: 'Senha alterada',
    data: { nome: 'Maria Oliveira', link: 'https://portal.exemplo/signin' },
  },
  'primeiro-acesso-tentativas': {
    title: 'Tentativas no primeiro acesso (ao dono da conta)',
    data: { nome: 'Maria Oliveira', link: 'https://portal.exemplo/reenviar-codigo-validacao' },
  },
  'segundo-fator-tentativas': {
    title: 'Tentativas na verificação em duas etapas (ao dono da conta)',
    data: { nome: 'Maria Oliveira', link: 'https://portal.exemplo/esqueci-senha' },
  },
  'apolice-emitida-vendedor': {
    title: 'Apólice emitida (ao vendedor)',
    data: {
      nome: 'Maria Oliveira',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      segurado: 'Marina Costa Alves',
      link: 'https://portal.exemplo/v2/apolices/011420260000123',
    },
  },
  'apolice-emitida-segurado': {
    title: 'Apólice emitida (ao segurado)',
    data: {
      nome: 'Marina Costa Alves',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      vigencia: '23/11/2026 a 23/11/2027',
      parceiro: 'Parceiro Demo Ltda.',
      link: 'https://portal.exemplo/apolice-digital/exemplo',
      validadeDias: 30,
    },
  },
  'dados-alterados-segurado': {
    title: 'Dados de contato alterados (ao segurado)',
    data: {
      nome: 'Marina Costa Alves',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      quando: '27/11/2026',
      alterados: 'e-mail e telefone',
      parceiro: 'Corretora Horizonte Seguros Ltda.',
      enderecoAnterior: true,
    },
  },
  'cancelamento-segurado': {
    title: 'Cancelamento (ao segurado)',
    data: {
      nome: 'Marina Costa Alves',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      nrEndosso: '202600000012',
      oQue: 'A sua apólice de seguro Residencial nº 011420260000123',
      plural: false,
      aPartirDe: '27/11/2026',
      porQue: 'a seu pedido (Contratou outro seguro)',
      restituicao: { valor: 'R$ 68,26', ate: '11/12/2026', destino: 'Pix (CPF) *******6391' },
      pago: true,
      parcelas: 'As parcelas em aberto (3ª e 4ª) foram canceladas: não serão cobradas.',
      parceiro: 'Corretora Horizonte Seguros Ltda.',
    },
  },
  'cancelamento-vendedor': {
    title: 'Cancelamento (ao vendedor)',
    data: {
      nome: 'Eduarda Lima',
      nrApolice: '011420260000123',
      segurado: 'Marina Costa Alves',
      nrEndosso: '202600000012',
      aPartirDe: '27/11/2026',
      restituicao: 'R$ 68,26 até 11/12/2026',
      estorno: 'R$ 13,65',
      link: 'https://portal.exemplo/v2/apolices/011420260000123',
      seguradoAvisado: 'RESTITUICAO',
    },
  },
  'cancelamento-agendado-segurado': {
    title: 'Cancelamento agendado (ao segurado)',
    data: {
      nome: 'Marina Costa Alves',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      oQue: 'As coberturas Roubo e Danos elétricos da sua apólice de seguro Residencial nº 011420260000123',
      plural: true,
      aPartirDe: '31/12/2026',
      destino: 'Pix (CPF) *******6391',
      parceiro: 'Corretora Horizonte Seguros Ltda.',
    },
  },
  'cancelamento-desfeito-segurado': {
    title: 'Cancelamento agendado desfeito (ao segurado)',
    data: {
      nome: 'Marina Costa Alves',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      aPartirDe: '31/12/2026',
      parceiro: 'Corretora Horizonte Seguros Ltda.',
    },
  },
  'restituicao-paga-segurado': {
    title: 'Restituição paga (ao segurado)',
    data: {
      nome: 'Marina Costa Alves',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      valor: 'R$ 68,26',
      motivo: 'do cancelamento da sua apólice',
      destino: 'Pix (CPF) *******6391',
      pagaEm: '11/12/2026',
      comprovante: 'DEMO-RESTITUICAO-12-1',
      parceiro: 'Corretora Horizonte Seguros Ltda.',
    },
  },
  'lembrete-vencimento': {
    title: 'Lembrete de vencimento, boleto e Pix (ao segurado)',
    data: {
      nome: 'Marina Costa Alves',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      numero: 2,
      vencimento: '10/12/2026',
      valor: 'R$ 58,40',
      link: 'https://portal.exemplo/boleto-digital/exemplo',
      validadeDias: 30,
      descadastro: 'https://portal.exemplo/lembretes/exemplo',
    },
  },
  'aviso-atraso': {
    title: 'Parcela vencida com a 2ª via (ao segurado)',
    data: {
      nome: 'Marina Costa Alves',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      numero: 2,
      vencimentoOriginal: '10/12/2026',
      vencimento: '14/12/2026',
      valor: 'R$ 59,79',
      parceiro: 'Corretora Horizonte Seguros Ltda.',
      link: 'https://portal.exemplo/boleto-digital/exemplo',
      validadeDias: 30,
      descadastro: 'https://portal.exemplo/lembretes/exemplo',
    },
  },
  'aviso-fim-vigencia': {
    title: 'Fim de vigência em 30 dias (ao segurado)',
    data: {
      nome: 'Marina Costa Alves',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      fimVigencia: '23/12/2026',
      parceiro: 'Corretora Horizonte Seguros Ltda. (ponto de venda Loja Centro — São Paulo)',
      contato: 'e-mail comercial@horizonte.exemplo, telefone (11) 3333-4444',
      descadastro: 'https://portal.exemplo/lembretes/exemplo',
    },
  },
  'boleto-segurado': {
    title: 'Boleto e Pix enviados pelo parceiro (ao segurado)',
    data: {
      nome: 'Marina Costa Alves',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      numero: 2,
      vencimento: '10/12/2026',
      valor: 'R$ 58,40',
      parceiro: 'Corretora Horizonte Seguros Ltda.',
      link: 'https://portal.exemplo/boleto-digital/exemplo',
      validadeDias: 30,
    },
  },
  'apolice-segurado': {
    title: 'Apólice enviada pelo parceiro (ao segurado)',
    data: {
      nome: 'Marina Costa Alves',
      nrApolice: '011420260000123',
      produto: 'Residencial',
      vigencia: '23/11/2026 a 23/11/2027',
      parceiro: 'Corretora Horizonte Seguros Ltda.',
      link: 'https://portal.exemplo/apolice-digital/exemplo',
      validadeDias: 30,
    },
  },
};

/**
 * A sentence that ends with a name ending in a dot ("por meio de Corretora Horizonte Seguros Ltda.")
 * takes no second dot (issue 42 item 15). Done here, where every e-mail is composed, rather than in
 * each sentence: an abbreviation may end any name a template puts last. An ellipsis keeps its dots, and
 * so does a link ('a..b' is followed by a letter). The WhatsApp message to the insured reads it too.
 */
export const oneFinalDot = (text: string) => text.replace(/(?<=[^.\s])\.\.(?=\s|$|<)/g, '.');

export function renderTemplate<K extends TemplateName>(name: K, data: Parameters<(typeof TEMPLATES)[K]>[0]): RenderedEmail {
  const mail = (TEMPLATES[name] as (d: typeof data) => RenderedEmail)(data);
  return { subject: oneFinalDot(mail.subject), text: oneFinalDot(mail.text), html: oneFinalDot(mail.html) };
}
