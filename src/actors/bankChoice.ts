import { fromPromise } from 'xstate';
import { bankChoiceMachine, type BankChoiceInput } from '../machines/bankChoice';
import { lastUsedBankOf, rememberLastUsedBank } from '../services/lastUsedBank';
import { banksOf } from '../services/sbpBanks';
import { logWith, type Dependencies } from './dependencies';

/** What the bank list needs from the page; main.tsx hands it over in the page context (PageServices.bankList). */
export type BankListDependencies = Pick<Dependencies, 'api' | 'env' | 'log'>;

/**
 * The fast-payment step's bank list: its machine with the real effects (the list call, this device's storage, the
 * console) and its input (the remembered bank, the platform). Only that step's view imports it, so it loads with the
 * step's chunk and the first JS stays as it was; the machine still does no I/O and the view only renders and sends.
 */
export function defineBankChoice({ api, env, log }: BankListDependencies): { logic: typeof bankChoiceMachine; input: BankChoiceInput } {
  return {
    logic: bankChoiceMachine.provide({
      actors: { loadBanks: fromPromise(async () => banksOf(await api.sbpBanks())) },
      actions: {
        'remember bank': (_, { id }) => rememberLastUsedBank(env.storage, id),
        'log error': logWith(log),
      },
    }),
    input: { lastUsedBankId: lastUsedBankOf(env.storage), platform: env.platform },
  };
}
