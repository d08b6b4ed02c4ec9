import type { InstallmentStatus } from '../../lib/policies';

/** The tone of an installment's state badge (ui.css): the lookups show it the same way. */
export const INSTALLMENT_STATUS_CLASS: Record<InstallmentStatus, string> = {
  PAGA: 'status status-success',
  ABERTA: 'status status-brand',
  VENCIDA: 'status status-warning',
  CANCELADA: 'status status-danger',
};
