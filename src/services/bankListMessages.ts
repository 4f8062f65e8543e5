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
  notFound: 'Банк не найден. Проверьте название или откройте приложение банка кнопкой ниже',
  foundBanks: 'Найденные банки',
  showAll: (n: number) => `Все банки (${n})`,
  hideAll: 'Свернуть список банков',
  allBanks: 'Все банки',
  lastUsed: 'Вы платили через него в прошлый раз',
  webClient: 'в браузере',
  newTab: '(откроется в новой вкладке)',
  /** The row that opens the payload itself: the phone offers its bank apps. */
  otherBank: 'Открыть приложение банка',
  otherBankNote: 'Другой банк — если вашего нет в списке',
};
