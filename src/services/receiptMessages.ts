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
  /** A bill the merchant captures by hand: the money is blocked on the card, not taken; the receipt comes with the capture. */
  held: 'Сумма заблокирована на карте',
  /** What happens next, with the day the hold ends at the latest ("02.12.2026"). */
  heldNote: (until: string) => `Продавец спишет ее после подтверждения или снимет блокировку до ${until}`,
  /** The merchant (or the clock) let the hold go: nothing was taken. */
  released: 'Блокировка снята',
  reload: 'Обновить страницу',
  retry: 'Попробовать снова',
  /** The ways forward after a declined card: another card first, fast payment beside it, then the merchant's support. */
  anotherCard: 'Оплатить другой картой',
  fastPayment: 'Оплатить через СБП',
  fastPaymentNoFee: 'Оплатить через СБП — без комиссии',
  support: 'Вопросы по оплате:',
  /** What a declined payment tried, and why. */
  declinedTitle: 'Что не прошло',
  declinedAmount: 'Сумма платежа',
  declinedReason: 'Причина',
  noReasonGiven: 'Банк не сообщил',
  backToShop: 'Вернуться в магазин',
  /** A part of a bill paid in parts was paid and more remains: the next part, on the same link. */
  nextPart: 'Оплатить следующую часть',
  /** The link of a bill that is paid: its own receipt instead of the data error. */
  paidTitle: 'Счет оплачен',
  /** A payment the merchant gave back: the status says so instead of 'Оплачено', the receipt when. */
  refundedWhole: (amount: string) => `Возвращено ${amount}`,
  refunded: 'Возвращено',
  /** A payment given back in part: what it comes to after the refund. */
  netAmount: 'Итого с учетом возврата',
  /** "8 000,00 руб., 15 мая 2026 г. в 12:00 МСК". */
  refundedWhen: (amount: string, at: string) => `${amount}, ${at}`,
  /** The amount row of a payment given back whole: what it was, not 'Оплачено'. */
  paymentAmount: 'Сумма платежа',
  receiptTitle: 'Чек',
  amount: 'Оплачено',
  points: 'Списано баллов',
  purpose: 'Назначение платежа',
  merchant: 'Получатель',
  order: 'Номер заказа',
  /** The order's number is long: its start is shown, the whole copied. */
  copyOrder: 'Скопировать номер',
  orderCopied: 'Номер заказа скопирован',
  card: 'Карта',
  at: 'Дата и время',
  method: 'Способ оплаты',
  methodPoints: 'Бонусные баллы',
  email: 'Чек отправлен на',
  /** What was bought: the bill's positions, the fee and the points as a discount. */
  positions: 'Позиции',
  fee: 'Сервисный сбор',
  pointsDiscount: 'Оплачено баллами',
  /** "2 × 1 500,00 руб." */
  quantityTimesPrice: (quantity: string, price: string) => `${quantity} × ${price}`,
  /** Under 'Чек отправлен на': the bank's cash register e-mails the fiscal receipt (with the positions) to that address. */
  fiscalNote: 'Кассовый чек с позициями банк отправит на этот адрес',
  /** The goods handed over: the day (Moscow) and where the closing receipt (full settlement) went. */
  handedOver: (day: string, sentTo: string | null) => `Товар передан ${day}.${sentTo ? ` Чек полного расчета отправлен на ${sentTo}` : ''}`,
  vat: {
    none: 'Без НДС',
    vat0: 'НДС 0 %',
    vat5: 'НДС 5 %',
    vat7: 'НДС 7 %',
    vat10: 'НДС 10 %',
    vat20: 'НДС 20 %',
    vat22: 'НДС 22 %',
    vat105: 'НДС 5/105',
    vat107: 'НДС 7/107',
    vat110: 'НДС 10/110',
    vat120: 'НДС 20/120',
    vat122: 'НДС 22/122',
  } as Record<string, string>,
  /** After the date and time: the page shows Moscow time whatever the payer's zone, and says so. */
  moscowTime: 'МСК',
};
