import { fromPromise } from 'xstate';
import { bankChoiceMachine, type BankChoiceInput } from './machines/bankChoice';
import { lastUsedBankOf, rememberLastUsedBank } from './services/lastUsedBank';
import { banksOf } from './services/sbpBanks';
import type { Dependencies } from './wiring';

/** What the bank list needs from the page; main.tsx hands it over in the page context (PageServices.bankList). */
export type BankListDependencies = Pick<Dependencies, 'api' | 'env' | 'log'>;

/**
 * The composition root's part for the fast-payment step's bank list (issue 18): its machine with the real effects
 * (the list call, this device's storage, the console) and its input (the remembered bank, the platform). Only that
 * step's view imports it, so it loads with the step's chunk and the first JS stays as it was (DESIGN §4 otherwise
 * holds: the machine does no I/O, the view only renders and sends events).
 */
export function provideBankChoice({ api, env, log }: BankListDependencies): { logic: typeof bankChoiceMachine; input: BankChoiceInput } {
  return {
    logic: bankChoiceMachine.provide({
      actors: { loadBanks: fromPromise(async () => banksOf(await api.sbpBanks())) },
      actions: {
        'remember bank': (_, { id }) => rememberLastUsedBank(env.storage, id),
        'log error': (_, { error }) => log(error),
      },
    }),
    input: { lastUsedBankId: lastUsedBankOf(env.storage), platform: env.platform },
  };
}
