/*
 * Sandbox bank-app pay widget (SberPay), environment `local`. A static script: the widget
 * page has no inline script, and its CSP allows framing by this origin only.
 *
 * Where it runs
 *   GET /sandbox/sberpay/widget?orderId=<id>&platform=desktop&params=<base64 of JSON>
 *     desktop: inside the checkout's iframe overlay (window.parent), or in the desktop-Safari helper tab
 *              (window.opener); mobile: as the whole page after a full redirect (no parent, no opener).
 *     params JSON: { bankInvoiceId, backUrl, orderId, successUrl, failUrl, href, host, isSafariDesktop }
 *     (base64 of the UTF-8 JSON; standard or URL-safe alphabet). orderId in the query wins over params.orderId.
 *   GET /sandbox/sberpay/access-cookie   the desktop-Safari helper tab's page.
 *
 * Messages: plain objects { type, payload? } through postMessage, always with an exact targetOrigin: the origin
 * of params.href, else of params.host, else of document.referrer. The widget accepts messages only from its
 * parent/opener window and from that origin.
 *   widget -> page
 *     { type: 'GET_VERSION' }, { type: 'GET_PARAMETERS' }, { type: 'GET_ORDERID' }      asked once on load
 *     { type: 'success', payload: { orderId, bankInvoiceId } }   the bank confirmed the payment ('Оплатить')
 *     { type: 'fail', payload: { orderId, bankInvoiceId, reason } }   the payer declined ('Отклонить') or it failed
 *     { type: 'CLOSE_WIDGET' }                                  'Закрыть', or Esc inside a page's overlay
 *     { type: 'OPEN_LINK', payload: { link } }                  'Открыть приложение банка'
 *   page -> widget (answers)
 *     { type: 'GET_VERSION', payload: '<version>' }
 *     { type: 'GET_PARAMETERS', payload: { ...params } }       replaces the parameters from the URL
 *     { type: 'GET_ORDERID', payload: '<orderId>' }
 *   Either side may ask: a GET_* message *without* payload sent to the widget is answered the same way, with the
 *   widget's version ('sandbox-1'), its parameters or its order id.
 *
 * Before 'success' or 'fail' the widget asks the sandbox bank (the RBS fake) to decide the order
 * (POST /sandbox/sberpay/<bankInvoiceId>/confirm {outcome: 'pay'|'decline'}): the server's status is what counts,
 * never this message. Without a parent or opener (mobile) the widget navigates instead: success to successUrl
 * (else backUrl) with state=success&bankInvoiceId=…, fail to failUrl (else backUrl), close to backUrl with
 * state=return&bankInvoiceId=…. It goes back only to the product's own origin (which serves this sandbox widget):
 * the params are in the URL, which anyone can write, and any other address would make it an open redirect.
 */
(function () {
  'use strict';
  var VERSION = 'sandbox-1';
  var query = new URLSearchParams(window.location.search);

  function decodeParams(raw) {
    if (!raw) return {};
    try {
      var base64 = raw.replace(/-/g, '+').replace(/_/g, '/');
      var bytes = Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
      var parsed = JSON.parse(new TextDecoder().decode(bytes));
      return parsed && typeof parsed === 'object' ? parsed : {};
    } catch (e) {
      return {};
    }
  }

  var params = decodeParams(query.get('params'));
  var orderId = query.get('orderId') || params.orderId || '';
  var peer = window.parent !== window ? window.parent : window.opener;

  function originOf(url) {
    try {
      return url ? new URL(url, window.location.href).origin : null;
    } catch (e) {
      return null;
    }
  }
  var peerOrigin = originOf(params.href) || originOf(params.host) || originOf(document.referrer);

  var statusLine = document.getElementById('widget-status');
  var orderLine = document.getElementById('widget-order');
  function show(text) {
    if (statusLine) statusLine.textContent = text;
  }
  function showOrder() {
    if (orderLine) orderLine.textContent = orderId ? 'Заказ ' + orderId : '';
  }
  showOrder();

  function post(type, payload) {
    if (!peer || !peerOrigin) return false;
    var message = payload === undefined ? { type: type } : { type: type, payload: payload };
    peer.postMessage(message, peerOrigin);
    return true;
  }

  /** Goes back to a page of the product's own origin with the extra query; any other address is not followed. */
  function goBack(url, extra) {
    var target;
    try {
      target = new URL(url, window.location.href);
    } catch (e) {
      return;
    }
    if (target.origin !== window.location.origin) {
      show('Адрес возврата не принадлежит магазину: переход отменен');
      return;
    }
    Object.keys(extra).forEach(function (key) {
      if (!target.searchParams.has(key)) target.searchParams.set(key, extra[key]);
    });
    window.location.assign(target.href);
  }

  function invoice() {
    return params.bankInvoiceId || orderId;
  }

  window.addEventListener('message', function (event) {
    if (!peer || event.source !== peer || event.origin !== peerOrigin) return;
    var data = event.data;
    if (!data || typeof data.type !== 'string') return;
    var answered = Object.prototype.hasOwnProperty.call(data, 'payload');
    if (data.type === 'GET_PARAMETERS') {
      if (answered) {
        if (data.payload && typeof data.payload === 'object') params = data.payload;
        if (params.orderId && !query.get('orderId')) orderId = String(params.orderId);
        showOrder();
      } else post('GET_PARAMETERS', params);
    } else if (data.type === 'GET_ORDERID') {
      if (answered) {
        if (!query.get('orderId') && data.payload) orderId = String(data.payload);
        showOrder();
      } else post('GET_ORDERID', orderId);
    } else if (data.type === 'GET_VERSION') {
      if (!answered) post('GET_VERSION', VERSION);
    }
  });

  function settle(outcome) {
    return fetch('/sandbox/sberpay/' + encodeURIComponent(invoice() || orderId) + '/confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: outcome }),
    }).then(function (response) {
      return response.ok ? response.json() : { status: 'declined' };
    });
  }

  var buttons = document.querySelectorAll('button[data-action]');
  function busy(on) {
    Array.prototype.forEach.call(buttons, function (b) { b.disabled = on; });
  }

  function finish(status) {
    var detail = { orderId: orderId, bankInvoiceId: invoice() };
    if (status === 'success') {
      show('Оплачено');
      if (post('success', detail)) return;
      var to = params.successUrl || params.backUrl;
      if (to) goBack(to, { state: 'success', bankInvoiceId: invoice() });
    } else {
      show('Платеж отклонен');
      detail.reason = 'declined';
      if (post('fail', detail)) return;
      var back = params.failUrl || params.backUrl;
      if (back) goBack(back, { state: 'return', bankInvoiceId: invoice() });
    }
  }

  document.addEventListener('click', function (event) {
    var target = event.target;
    var button = target && target.closest ? target.closest('[data-action]') : null;
    if (!button) return;
    var action = button.getAttribute('data-action');
    if (action === 'pay' || action === 'decline') {
      busy(true);
      show('Обработка…');
      settle(action)
        .then(function (answer) { finish(answer.status); })
        .catch(function () { finish('declined'); })
        .then(function () { busy(false); });
    } else if (action === 'close') {
      if (post('CLOSE_WIDGET')) return;
      if (params.backUrl) goBack(params.backUrl, { state: 'return', bankInvoiceId: invoice() });
    } else if (action === 'open-link') {
      event.preventDefault();
      var link = button.href;
      if (!post('OPEN_LINK', { link: link })) window.location.assign(link);
    }
  });

  // Inside a page's overlay, Esc in the widget closes it as Esc on the page does (a bank's widget does the same).
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && peer) post('CLOSE_WIDGET');
  });

  post('GET_VERSION');
  post('GET_PARAMETERS');
  post('GET_ORDERID');
})();
