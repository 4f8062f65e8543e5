/**
 * A bill's status in the desk's words, one per status of the merchant API: the desk's pages and the server's CSV
 * export say the same (each side checks against its own type that every status has its words).
 */
export const billStatusWords = {
  unpaid: 'Не оплачен',
  partially_paid: 'Оплачен частично',
  held: 'Сумма заблокирована',
  paid: 'Оплачен',
  handed_over: 'Оплачен, передан клиенту',
  cancelled: 'Отменен',
  expired: 'Просрочен',
} as const;
