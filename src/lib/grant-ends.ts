import { formatDateTime } from './format';

/*
 * Grants with an end date (issue 32, decision 072), pure: what the log and the pages say.
 */

export const GRANT_END_MESSAGES = {
  notMember: 'O usuário não tem este grupo.',
  membershipDetail: (group: string, endsAt: Date | null) =>
    endsAt ? `acesso ao grupo ${group} até ${formatDateTime(endsAt)}` : `acesso ao grupo ${group} sem data de fim`,
  membershipEnded: (group: string) => `acesso ao grupo ${group} chegou à data de fim`,
  grantEnded: (group: string, permission: string) => `permissão ${permission} do grupo ${group} chegou à data de fim`,
} as const;
