import type { LegalDocument } from './types';

export const TERMO_DE_USO: LegalDocument = {
  title: 'Termos de Uso do Portal de Parceiros',
  version: '1.0',
  updatedAt: '2026-11-22',
  intro:
    'Estes Termos de Uso regulam o acesso e a utilização do Portal de Parceiros da Seguradora Demo S.A. (“Seguradora”), ambiente destinado à simulação de cotações, à emissão de propostas e à comercialização de seguros residencial, agrícola, vida, máquinas, empresarial, empresarial individual e itens pessoais. Ao acessar o Portal, o usuário declara ter lido, compreendido e aceitado integralmente estas condições.',
  sections: [
    {
      title: '1. Quem pode utilizar o Portal',
      paragraphs: [
        'O acesso é restrito a: (a) parceiros, como corretoras de seguros e demais empresas com contrato de parceria vigente com a Seguradora; (b) substabelecidos, isto é, pessoas físicas ou jurídicas a quem o parceiro delegou, com autorização da Seguradora, poderes para atuar em seu nome; e (c) administradores designados pela própria Seguradora.',
        'O parceiro responde pelos atos praticados por seus substabelecidos no Portal e deve mantê-los informados sobre estes Termos. Os perfis de acesso e as funcionalidades disponíveis variam conforme o papel de cada usuário.',
      ],
    },
    {
      title: '2. Credenciais de acesso',
      paragraphs: [
        'O login e a senha são pessoais e intransferíveis. É vedado compartilhá-los, cedê-los ou permitir que terceiros os utilizem, ainda que pertencentes à mesma empresa.',
        'O usuário é responsável por manter a confidencialidade de suas credenciais e por todas as operações realizadas com elas. Em caso de suspeita de uso indevido, perda ou vazamento, deve alterar a senha imediatamente e comunicar a Seguradora pelos canais oficiais de atendimento.',
      ],
    },
    {
      title: '3. Responsabilidades do parceiro',
      paragraphs: [
        'O parceiro e seus substabelecidos comprometem-se a: (a) inserir dados verdadeiros, completos e atualizados dos clientes, obtidos diretamente destes ou de fontes legítimas; (b) obter o consentimento e a ciência do cliente antes de simular, registrar ou enviar propostas em seu nome; (c) apresentar ao cliente, de forma clara, as coberturas, exclusões, franquias, carências e o custo do seguro; e (d) guardar sigilo sobre as informações de clientes, produtos, preços e regras comerciais a que tiverem acesso.',
        'É proibido utilizar o Portal para fins diversos da intermediação de seguros da Seguradora, bem como tentar contornar controles de segurança, automatizar acessos sem autorização ou extrair dados em massa.',
      ],
    },
    {
      title: '4. Proteção de dados pessoais (LGPD)',
      paragraphs: [
        'O tratamento de dados pessoais no Portal observa a Lei Geral de Proteção de Dados Pessoais (Lei nº 13.709/2018). Quanto aos dados tratados para cotação, emissão e gestão do seguro, a Seguradora atua como controladora. O parceiro atua como operador quando trata dados por conta e conforme as instruções da Seguradora, e como controlador em relação aos dados que coleta e utiliza para finalidades próprias, como a gestão de sua carteira de clientes, respondendo pelas obrigações correspondentes.',
        'Os dados são tratados exclusivamente para as finalidades de simulação, análise de risco, subscrição, emissão, cobrança, regulação de sinistros, prevenção a fraudes e cumprimento de obrigações legais e regulatórias. As bases legais aplicáveis incluem a execução de contrato e de procedimentos preliminares, o cumprimento de obrigação legal ou regulatória, o exercício regular de direitos, a proteção do crédito, o legítimo interesse e, quando exigido, o consentimento do titular.',
        'Os titulares podem exercer os direitos previstos no art. 18 da LGPD, como confirmação da existência de tratamento, acesso, correção, anonimização, bloqueio ou eliminação de dados desnecessários, portabilidade, informação sobre compartilhamentos e revogação do consentimento. O parceiro deve encaminhar à Seguradora, sem demora, as solicitações de titulares que receber.',
        'O contato do Encarregado pelo Tratamento de Dados Pessoais (DPO) da Seguradora é dpo@seguradora.demo. Incidentes de segurança envolvendo dados pessoais devem ser comunicados a esse endereço imediatamente após sua identificação.',
      ],
    },
    {
      title: '5. Registros de atividade e monitoramento',
      paragraphs: [
        'Para fins de segurança, auditoria e cumprimento regulatório, a Seguradora registra as atividades realizadas no Portal, incluindo data, hora, endereço IP, usuário responsável e operações executadas. Esses registros podem ser monitorados e utilizados para apurar irregularidades, atender a autoridades e instruir processos administrativos ou judiciais, sendo mantidos pelos prazos previstos na legislação.',
      ],
    },
    {
      title: '6. Remuneração do parceiro',
      paragraphs: [
        'Em observância à Resolução CNSP nº 382/2020, a remuneração do intermediário pela intermediação do seguro é informada ao cliente antes da contratação, no resumo da proposta exibido pelo Portal. O parceiro não pode omitir, alterar ou apresentar de forma enganosa essa informação, nem cobrar do cliente valores não previstos na proposta.',
      ],
    },
    {
      title: '7. Propriedade intelectual',
      paragraphs: [
        'O Portal, seu código, layout, marcas, logotipos, textos, tabelas, regras de cálculo e demais conteúdos pertencem à Seguradora ou a seus licenciantes e são protegidos pela legislação de propriedade intelectual. O acesso concede apenas licença limitada, revogável e não exclusiva de uso para as finalidades destes Termos, sendo vedadas a reprodução, a engenharia reversa e a exploração comercial não autorizada.',
      ],
    },
    {
      title: '8. Suspensão e bloqueio de acesso',
      paragraphs: [
        'A Seguradora poderá suspender ou bloquear, total ou parcialmente, o acesso de qualquer usuário, inclusive preventivamente, em caso de violação destes Termos, suspeita de fraude ou de uso indevido de credenciais, irregularidade cadastral junto à SUSEP, encerramento da parceria ou determinação legal. O parceiro também pode solicitar a qualquer momento o bloqueio de seus substabelecidos.',
        'A suspensão não afeta as obrigações já assumidas perante clientes e a Seguradora nem o dever de sigilo, que permanecem válidos após o término do acesso.',
      ],
    },
    {
      title: '9. Alterações destes Termos',
      paragraphs: [
        'Estes Termos podem ser atualizados a qualquer tempo para refletir mudanças legais, regulatórias ou operacionais. A versão vigente e a data de atualização ficam sempre disponíveis no Portal, e alterações relevantes serão comunicadas aos usuários, podendo ser exigido novo aceite. O uso continuado do Portal após a publicação indica concordância com a nova versão.',
      ],
    },
    {
      title: '10. Legislação aplicável e foro',
      paragraphs: [
        'Estes Termos são regidos pelas leis da República Federativa do Brasil. Fica eleito o foro da Comarca de São Paulo/SP para dirimir quaisquer controvérsias deles decorrentes, com renúncia a qualquer outro, por mais privilegiado que seja.',
      ],
    },
  ],
};
