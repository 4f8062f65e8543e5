import { syncAddressBar } from '../../src/services/addressBar';

/** A stand-in checkout: its route and the steps behind it, and 'back' as the checkout does it. */
function fakeCheckout() {
  const stack: string[] = ['/noReg'];
  const listeners = new Set<(path: string, behind: readonly string[]) => void>();
  const emit = () => listeners.forEach((l) => l(stack.at(-1)!, stack.slice(0, -1)));
  return {
    binding: {
      subscribe(onRoute: (path: string, behind: readonly string[]) => void) {
        listeners.add(onRoute);
        onRoute(stack.at(-1)!, stack.slice(0, -1));
        return () => listeners.delete(onRoute);
      },
      back: jest.fn(() => {
        if (stack.length > 1) stack.pop();
        emit();
      }),
    },
    goTo(path: string) {
      stack.push(path);
      emit();
    },
    main() {
      stack.splice(0, stack.length, '/noReg');
      emit();
    },
    /** A step that takes the place of the one on screen (the result after the QR). */
    replace(path: string) {
      stack[stack.length - 1] = path;
      emit();
    },
    get listeners() {
      return listeners.size;
    },
  };
}

const popped = () => new Promise<void>((resolve) => window.addEventListener('popstate', () => setTimeout(resolve, 0), { once: true }));

let stop: () => void = () => undefined;
beforeEach(() => {
  window.history.replaceState(null, '', '/pay/demo-anon');
});
afterEach(() => stop());

/** The address bar kept in step with a fresh checkout (stopped after the test) that has gone through `steps`. */
function synced(...steps: string[]) {
  const checkout = fakeCheckout();
  const binding = syncAddressBar(window, checkout.binding);
  stop = binding.stop;
  steps.forEach((step) => checkout.goTo(step));
  return { checkout, binding };
}

/** The browser moves (Back, Forward, a typed hash, the page's own Back) and the page has heard of it. */
async function browserMoves(move: () => void) {
  const moved = popped();
  move();
  await moved;
}

test('the first route replaces the entry; each forward step pushes one', () => {
  const checkout = fakeCheckout();
  const before = window.history.length;
  stop = syncAddressBar(window, checkout.binding).stop;
  expect(window.location.hash).toBe('#/noReg');
  expect(window.history.length).toBe(before);
  checkout.goTo('/choosePaymentType');
  expect(window.location.hash).toBe('#/choosePaymentType');
  expect(window.history.length).toBe(before + 1);
  expect(window.location.pathname).toBe('/pay/demo-anon');
});

test("the browser's Back sends the checkout one step back", async () => {
  const { checkout } = synced('/choosePaymentType');
  await browserMoves(() => window.history.back());
  expect(checkout.binding.back).toHaveBeenCalledTimes(1);
  expect(window.location.hash).toBe('#/noReg');
});

test("the page's Back link goes through the browser history when the entry is ours", async () => {
  const { checkout, binding } = synced('/choosePaymentType');
  await browserMoves(() => binding.back());
  expect(checkout.binding.back).toHaveBeenCalledTimes(1);
  expect(window.location.hash).toBe('#/noReg');
});

describe('bound after the payer had already stepped forward (its code loaded late)', () => {
  /** The checkout gone through `steps` before the address bar is bound to it. */
  function boundLate(...steps: string[]) {
    const checkout = fakeCheckout();
    steps.forEach((step) => checkout.goTo(step));
    const binding = syncAddressBar(window, checkout.binding);
    stop = binding.stop;
    return { checkout, binding };
  }

  test('each step behind gets its entry, the first in place of the page’s own', () => {
    boundLate('/choosePaymentType', '/sbp');
    expect(window.location.hash).toBe('#/sbp');
    // The third entry of ours: the page's own (now the first step's) and the choose step's before it.
    expect(window.history.state).toEqual({ depth: 2, index: 2 });
  });

  test("the browser's Back goes to the steps behind, then to the first, and stays in the page", async () => {
    const { checkout } = boundLate('/choosePaymentType', '/sbp');
    await browserMoves(() => window.history.back());
    expect(window.location.hash).toBe('#/choosePaymentType');
    await browserMoves(() => window.history.back());
    expect(window.location.hash).toBe('#/noReg');
    expect(window.location.pathname).toBe('/pay/demo-anon');
    expect(checkout.binding.back).toHaveBeenCalledTimes(2);
  });

  test("the page's Back link goes through those entries too", async () => {
    const { checkout, binding } = boundLate('/choosePaymentType');
    await browserMoves(() => binding.back());
    expect(window.location.hash).toBe('#/noReg');
    expect(checkout.binding.back).toHaveBeenCalledTimes(1);
  });
});

test('the Back link asks the checkout directly when no browser entry is ours', () => {
  const { checkout, binding } = synced();
  binding.back();
  expect(checkout.binding.back).toHaveBeenCalledTimes(1);
});

test('going to the main route (history cleared) replaces the entry instead of pushing', () => {
  const { checkout } = synced('/usePoints');
  const length = window.history.length;
  checkout.main();
  expect(window.location.hash).toBe('#/noReg');
  expect(window.history.length).toBe(length);
});

test('browser Back with nothing to go back to inside the checkout keeps the current step', async () => {
  const checkout = fakeCheckout();
  window.history.pushState(null, '', '/pay/demo-anon#/earlier');
  stop = syncAddressBar(window, checkout.binding).stop;
  window.history.pushState(null, '', '/pay/demo-anon#/other');
  await browserMoves(() => window.history.back());
  expect(checkout.binding.back).not.toHaveBeenCalled();
  expect(window.location.hash).toBe('#/noReg');
});

test('stop unsubscribes and no longer listens to the browser', async () => {
  const checkout = fakeCheckout();
  syncAddressBar(window, checkout.binding).stop();
  expect(checkout.listeners).toBe(0);
  window.history.pushState(null, '', '#/x');
  await browserMoves(() => window.history.back());
  expect(checkout.binding.back).not.toHaveBeenCalled();
});

describe('Back and Forward always land where the address bar says', () => {
  test('Forward to a step the checkout has left goes back to the step on screen', async () => {
    const { checkout } = synced('/choosePaymentType', '/sbp');
    await browserMoves(() => window.history.back());
    expect(window.location.hash).toBe('#/choosePaymentType');
    // Forward, then the page's own return to the step on screen.
    await browserMoves(() => window.history.forward());
    await popped();
    expect(window.location.hash).toBe('#/choosePaymentType');
    expect(checkout.binding.back).toHaveBeenCalledTimes(1);
    // Back still works from there.
    await browserMoves(() => window.history.back());
    expect(window.location.hash).toBe('#/noReg');
    expect(checkout.binding.back).toHaveBeenCalledTimes(2);
  });

  test('a step that replaced another (the result after the QR): Back goes to the step before both', async () => {
    const { checkout, binding } = synced('/choosePaymentType', '/sbp');
    const length = window.history.length;
    checkout.replace('/result');
    expect(window.location.hash).toBe('#/result');
    expect(window.history.length).toBe(length);
    await browserMoves(() => binding.back());
    expect(window.location.hash).toBe('#/choosePaymentType');
  });

  test('Back several entries at once takes the checkout as many steps back', async () => {
    const { checkout } = synced('/choosePaymentType', '/sbp');
    await browserMoves(() => window.history.go(-2));
    expect(checkout.binding.back).toHaveBeenCalledTimes(2);
    expect(window.location.hash).toBe('#/noReg');
  });

  test('a hash typed into the address bar is replaced by the step on screen', async () => {
    const { checkout } = synced('/choosePaymentType');
    await browserMoves(() => {
      window.location.hash = '#/result';
    });
    expect(window.location.hash).toBe('#/choosePaymentType');
    expect(checkout.binding.back).not.toHaveBeenCalled();
  });
});

test('a page with no step to show (a paid bill) drops the step from the address and keeps the query', () => {
  window.history.replaceState(null, '', '/pay/demo-anon?retry=order-1#/sbp');
  let report: (path: string | null, behind: readonly string[]) => void = () => undefined;
  stop = syncAddressBar(window, {
    subscribe: (onRoute) => {
      report = onRoute;
      return () => undefined;
    },
    back: () => undefined,
  }).stop;
  const before = window.history.length;
  report(null, []);
  expect(window.location.hash).toBe('');
  expect(window.location.pathname + window.location.search).toBe('/pay/demo-anon?retry=order-1');
  expect(window.history.length).toBe(before);
});
