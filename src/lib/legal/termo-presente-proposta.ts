import type { LegalDocument } from './types';

export const TERMO_PRESENTE_PROPOSTA: LegalDocument = {
  title: 'Termo de Ciência e Aceite da Proposta',
  version: '1.1',
  updatedAt: '2026-11-27',
  intro:
    'Antes de enviar sua proposta de seguro à Seguradora Demo S.A. (“Seguradora”), leia com atenção as informações abaixo. Ao confirmar o aceite, você declara ter compreendido e concordado com todas elas.',
  sections: [
    {
      title: '1. Análise e aceitação do risco',
      paragraphs: [
        'O envio desta proposta não garante a contratação do seguro. A proposta está sujeita à análise e à aceitação do risco pela Seguradora, que se manifestará em até 25 (vinte e cinco) dias contados do recebimento da proposta (Lei nº 15.040/2024). Sem manifestação nesse prazo, a proposta é considerada aceita.',
        'Esse prazo pode ser suspenso caso a Seguradora solicite documentos ou informações complementares, voltando a correr a partir de sua entrega. Se a proposta for recusada, você será informado e eventuais valores já pagos serão devolvidos conforme a regulamentação vigente.',
      ],
    },
    {
      title: '2. Veracidade das declarações',
      paragraphs: [
        'Você declara que as informações prestadas nesta proposta são verdadeiras, completas e foram fornecidas por você ou com sua autorização.',
        'Conforme o art. 766 do Código Civil, se o segurado, por si ou por seu representante, fizer declarações inexatas ou omitir circunstâncias que possam influir na aceitação da proposta ou no valor do prêmio, perderá o direito à garantia e à indenização, além de continuar obrigado ao pagamento do prêmio vencido. Se a inexatidão ou omissão não resultar de má-fé, a Seguradora poderá resolver o contrato ou cobrar a diferença do prêmio, ainda que após o sinistro.',
        'Você se compromete a comunicar à Seguradora, assim que tiver conhecimento, qualquer alteração relevante nas informações declaradas.',
      ],
    },
    {
      title: '3. Pagamento e início da cobertura',
      paragraphs: [
        'O início de vigência e da cobertura observará o disposto nas condições gerais e especiais do produto contratado e na apólice emitida.',
        'A falta de pagamento da primeira parcela ou da parcela única do prêmio até a data de vencimento implicará o cancelamento da proposta ou do contrato, sem direito a qualquer indenização. O atraso no pagamento das parcelas seguintes poderá acarretar a redução do prazo de vigência ou o cancelamento do seguro, nos termos das condições gerais.',
      ],
    },
    {
      title: '4. Tratamento de dados pessoais',
      paragraphs: [
        'Você autoriza e está ciente de que seus dados pessoais, inclusive dados sensíveis quando necessários ao produto, como informações de saúde no seguro de vida, serão tratados pela Seguradora e por seus parceiros, nos termos da Lei Geral de Proteção de Dados Pessoais (Lei nº 13.709/2018), para análise do risco, emissão, cobrança, gestão do contrato, regulação de sinistros, prevenção a fraudes e cumprimento de obrigações legais e regulatórias.',
        'Os dados poderão ser compartilhados com o intermediário desta proposta, resseguradores, prestadores de serviço e autoridades competentes, na medida necessária a essas finalidades. Você pode exercer seus direitos de titular, como acesso, correção e revogação do consentimento, pelo e-mail do Encarregado (DPO): dpo@seguradora.demo.',
      ],
    },
    {
      title: '5. Remuneração do intermediário',
      paragraphs: [
        'Em atendimento à Resolução CNSP nº 382/2020, informamos que o intermediário desta proposta é remunerado pela intermediação do seguro. O valor ou o percentual dessa remuneração é apresentado na tela de resumo da proposta, antes da confirmação deste aceite, junto com o valor do prêmio.',
      ],
    },
    {
      title: '6. Condições Gerais do seguro',
      paragraphs: [
        'As Condições Gerais do produto, que detalham coberturas, riscos excluídos, franquias, carências, obrigações do segurado e procedimentos em caso de sinistro, estão disponíveis para consulta e download antes do envio da proposta e serão enviadas novamente com a apólice. Você declara ter tido acesso a elas e recomendamos a leitura completa.',
        'O registro do produto na SUSEP não implica, por parte da Autarquia, incentivo ou recomendação à sua comercialização.',
      ],
    },
    {
      title: '7. Direito de arrependimento',
      paragraphs: [
        'Quando a contratação ocorrer fora do estabelecimento comercial, como pela internet ou por telefone, você poderá desistir do seguro no prazo de 7 (sete) dias, contados da assinatura da proposta ou do recebimento da apólice, conforme o art. 49 do Código de Defesa do Consumidor. Nesse caso, os valores eventualmente pagos serão devolvidos, monetariamente atualizados.',
      ],
    },
    {
      title: '8. Atendimento, Ouvidoria e SUSEP',
      paragraphs: [
        'Dúvidas, solicitações e reclamações podem ser apresentadas ao seu intermediário ou aos canais de atendimento da Seguradora. Caso a resposta não seja satisfatória, você poderá recorrer à Ouvidoria da Seguradora, cujos contatos constam na apólice e no site da Seguradora.',
        'Você também pode consultar a situação cadastral do seu corretor e do produto e registrar reclamações junto à Superintendência de Seguros Privados (SUSEP), órgão fiscalizador do mercado de seguros, por meio dos canais oficiais indicados em seu site.',
      ],
    },
  ],
};
