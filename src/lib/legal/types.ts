export interface LegalSection {
  title: string;
  paragraphs: string[];
}

export interface LegalDocument {
  title: string;
  version: string;
  /** Data da última atualização, no formato 'YYYY-MM-DD'. */
  updatedAt: string;
  intro: string;
  sections: LegalSection[];
}
