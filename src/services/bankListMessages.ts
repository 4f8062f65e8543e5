import { plural } from './format';

/**
 * The texts of the fast-payment step's bank list: part of the message catalogue (messages.ts), kept in a
 * file of its own because they load with that step's chunk, so the first JS does not grow by them.
 */
export const bankListMessages = {
  chooseBank: 'Выберите банк для оплаты',
  amount: 'Сумма к оплате',
  openList: 'Выбрать банк из списка',
  closeList: 'Скрыть список банков',
  loadingBanks: 'Загружаем список банков…',
  searchLabel: 'Поиск банка',
  searchPlaceholder: 'Название банка',
  found: (n: number) => `${plural(n, ['Найден', 'Найдено', 'Найдено'])} ${n} ${plural(n, ['банк', 'банка', 'банков'])}`,
  notFound: 'Банк не найден. Проверьте название или выберите «Другой банк»',
  foundBanks: 'Найденные банки',
  showAll: (n: number) => `Все банки (${n})`,
  hideAll: 'Свернуть список банков',
  allBanks: 'Все банки',
  lastUsed: 'Вы платили через него в прошлый раз',
  webClient: 'в браузере',
  newTab: '(откроется в новой вкладке)',
  otherBank: 'Другой банк',
  otherBankNote: 'Если вашего банка нет в списке',
};
