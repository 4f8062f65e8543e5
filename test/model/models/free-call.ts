import { setup } from 'xstate';
import { stepMessages } from '../../../src/services/stepMessages';
import { sees, type Sight } from '../support/sights';

const t = stepMessages.freeCall;
const screen: Sight[] = [{ heading: t.title }, { back: true }];
/** The number the provider gave for this page's check, and the way to call it. */
const number = (pretty: string): Sight[] => [{ text: pretty }, { link: t.call }];

/**
 * The free call, from the forgot-password code screen's hint: the lock starts a call check at the provider and the
 * screen shows its number to call; the page polls every 5 s and reloads once the call confirmed the check; the check
 * ending at the provider, or 60 s, returns to the main route. No check started: no number. A call another page waited
 * for with the same number signs in neither: this page asks the payer to start again, with a new check.
 */
export const freeCallModel = setup({}).createMachine({
  id: 'freeCall',
  initial: 'closed',
  states: {
    closed: {
      on: { OPEN_FREE_CALL: 'waiting', OPEN_FREE_CALL_NOT_LOCKED: 'notLocked', OPEN_FREE_CALL_LOCK_FAILS: 'notLocked', RELOAD_ON_FREE_CALL: 'reloadWaiting' },
    },
    // Reloaded while waiting (the restore code still valid): the line is asked again for the same phone; Back is the code screen.
    reloadWaiting: { meta: sees(...screen, ...number('+7 (800) 500-82-75'), { status: t.waiting }, { text: t.callFrom('+7 (999) ***-**-02') }), on: { BACK: 'codeScreen' } },
    waiting: {
      meta: sees(...screen, ...number('+7 (800) 500-82-75'), { status: t.waiting }, { text: t.callFrom('+7 (999) ***-**-02') }),
      on: { POLL_NOT_YET: 'stillWaiting', POLL_FAILS: 'stillWaiting', CALL_CAME: 'reloaded', WAIT_60S: 'gaveUp', CHECK_ENDED: 'gaveUp', CALL_CLAIMED_TWICE: 'startAgain', BACK: 'codeScreen' },
    },
    stillWaiting: { meta: sees(...screen, ...number('+7 (800) 500-82-75'), { status: t.waiting }), on: { CALL_CAME: 'reloaded' } },
    notLocked: { meta: sees(...screen, { alert: t.notLocked }, { noLink: t.call }, { noText: t.waiting }) },
    startAgain: { meta: sees(...screen, { alert: t.startAgain }, { noLink: t.call }, { button: t.restart }), on: { START_AGAIN: 'waitingAgain' } },
    waitingAgain: { meta: sees(...screen, ...number('+7 (800) 500-82-76'), { status: t.waiting }, { noAlert: t.startAgain }) },
    reloaded: { meta: sees({ reloaded: true }) },
    gaveUp: { meta: sees({ heading: stepMessages.signIn.title }, { back: false }) },
    codeScreen: { meta: sees({ heading: stepMessages.code.sent }, { link: stepMessages.code.freeCallHint }) },
  },
});
