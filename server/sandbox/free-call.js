/*
 * The sandbox free-call line's page (GET /sandbox/free-call): a tester types the phone the payer calls from (and the
 * number dialled, if not the phone's newest check's) and presses 'Позвонить'. The call goes to the sandbox's SMS
 * provider, which confirms the check and tells the checkout; the page has no inline script, this static file is its script.
 */
(function () {
  'use strict';
  var form = document.getElementById('free-call-form');
  var status = document.getElementById('free-call-status');
  if (!form || !status) return;

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var digits = function (name) {
      return String(form.elements.namedItem(name).value).replace(/\D/g, '');
    };
    var to = digits('to');
    status.textContent = 'Звоним…';
    fetch('/sandbox/free-call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(to ? { phone: digits('phone'), to: to } : { phone: digits('phone') }),
    })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) return body.error || body.message || 'Звонок не удался';
          return body.answered ? 'Звонок принят: страница, которая его ждала, войдет в кабинет' : 'Звонок принят, но звонка с этого номера на этот номер никто не ждал';
        });
      })
      .catch(function () {
        return 'Звонок не удался: сервер не ответил';
      })
      .then(function (text) {
        status.textContent = text;
      });
  });
})();
