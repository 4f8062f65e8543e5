/**
 * The texts of the payment's end: the receipt, a cancelled payment, a slow bank, a paid bill. Part of the
 * message catalogue (messages.ts), kept in a file of its own because they load with the result's chunk, so the first
 * JS does not grow by them (as bankListMessages.ts does for the bank list).
 */
export const receiptMessages = {
  /** The widget was closed (`state=return`) and the bank has said nothing: nothing was paid. */
  cancelled: 'Оплата отменена',
  cancelledNote: 'Деньги не списаны. Можно попробовать еще раз или выбрать другой способ оплаты.',
  /** A declined payment of a bill that another payment paid meanwhile (another tab, another payer). */
  billPaidElsewhere: 'Счет уже оплачен',
  billPaidElsewhereNote: 'Оплата по нему прошла, платить еще раз не нужно.',
  /** Two minutes and still no word from the bank: said honestly, with a reload on offer. */
  slow: 'Банк пока не подтвердил платеж',
  slowNote: 'Обычно это занимает несколько секунд, но иногда дольше. Мы продолжаем проверять — можно остаться на странице или обновить ее позже.',
  reload: 'Обновить страницу',
  retry: 'Попробовать снова',
  backToShop: 'Вернуться в магазин',
  /** The link of a bill that is paid: its own receipt instead of the data error. */
  paidTitle: 'Счет оплачен',
  receiptTitle: 'Чек',
  amount: 'Оплачено',
  points: 'Списано баллов',
  purpose: 'Назначение платежа',
  merchant: 'Получатель',
  order: 'Номер заказа',
  at: 'Дата и время',
  method: 'Способ оплаты',
  methodPoints: 'Бонусные баллы',
  email: 'Чек отправлен на',
  /** After the date and time: the page shows Moscow time whatever the payer's zone, and says so. */
  moscowTime: 'МСК',
};
