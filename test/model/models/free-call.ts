import { setup } from 'xstate';
import { stepMessages } from '../../../src/services/stepMessages';
import { sees, type Sight } from '../support/sights';

const screen: Sight[] = [{ heading: stepMessages.freeCall.title }, { link: stepMessages.freeCall.call }, { back: true }];

/**
 * The free call, from the forgot-password code screen's hint: the lock asks the line to expect the
 * payer's call; locked, the page polls every 5 s and reloads once the call came in; after 60 s it gives up and
 * returns to the main route. A line that does not lock leaves nothing to wait for.
 */
export const freeCallModel = setup({}).createMachine({
  id: 'freeCall',
  initial: 'closed',
  states: {
    closed: {
      on: { OPEN_FREE_CALL: 'waiting', OPEN_FREE_CALL_NOT_LOCKED: 'notLocked', OPEN_FREE_CALL_LOCK_FAILS: 'notLocked', RELOAD_ON_FREE_CALL: 'waitingAgain' },
    },
    // Reloaded while waiting (the restore code still valid): the line is asked again for the same phone; Back is the code screen.
    waitingAgain: { meta: sees(...screen, { status: stepMessages.freeCall.waiting }, { text: stepMessages.freeCall.callFrom('+7 (999) ***-**-02') }), on: { BACK: 'codeScreen' } },
    waiting: {
      meta: sees(...screen, { status: stepMessages.freeCall.waiting }),
      on: { POLL_NOT_YET: 'stillWaiting', POLL_FAILS: 'stillWaiting', CALL_CAME: 'reloaded', WAIT_60S: 'gaveUp', BACK: 'codeScreen' },
    },
    stillWaiting: { meta: sees(...screen, { status: stepMessages.freeCall.waiting }), on: { CALL_CAME: 'reloaded' } },
    notLocked: { meta: sees(...screen, { noText: stepMessages.freeCall.waiting }) },
    reloaded: { meta: sees({ reloaded: true }) },
    gaveUp: { meta: sees({ heading: stepMessages.signIn.title }, { back: false }) },
    codeScreen: { meta: sees({ heading: stepMessages.code.sent }, { link: stepMessages.code.freeCallHint }) },
  },
});
