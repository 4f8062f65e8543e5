/*
 * The sandbox free-call line's page (GET /sandbox/free-call): a tester types the phone the payer calls from and
 * presses 'Позвонить'. A call signs an account in, so the POST carries the page's CSRF token like any POST of
 * the checkout (the page has no inline script; this static file is its script).
 */
(function () {
  'use strict';
  var form = document.getElementById('free-call-form');
  var status = document.getElementById('free-call-status');
  var meta = document.querySelector('meta[name="csrf-token"]');
  if (!form || !status || !meta) return;

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var phone = String(form.elements.namedItem('phone').value).replace(/\D/g, '');
    status.textContent = 'Звоним…';
    fetch('/sandbox/free-call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': meta.content },
      body: JSON.stringify({ phone: phone }),
    })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) return body.error || 'Звонок не удался';
          return body.answered ? 'Звонок принят: страница, которая его ждала, войдет в кабинет' : 'Звонок принят, но звонка с этого номера никто не ждал';
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
