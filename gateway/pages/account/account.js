// The pages the platform's mails link to: each completes its action through the REST API of this same origin. A
// file of its own: the pages' policy allows no inline script. The token stays in the page (never stored).
(function () {
  var token = new URLSearchParams(window.location.search).get('token') || '';
  var message = document.getElementById('message');
  var form = document.getElementById('form');

  function show(text, kind) {
    message.textContent = text;
    message.className = 'message ' + kind;
    message.hidden = false;
  }

  /** POSTs JSON to the API; answers `data`, or throws an Error with the API's message (and its fields'). */
  function post(path, body, accessToken) {
    var headers = { 'content-type': 'application/json', accept: 'application/json' };
    if (accessToken) headers.authorization = 'Bearer ' + accessToken;
    return fetch(path, { method: 'POST', headers: headers, body: JSON.stringify(body), credentials: 'omit' }).then(function (res) {
      return res
        .json()
        .catch(function () {
          return null;
        })
        .then(function (answer) {
          if (res.ok && answer && answer.success) return answer.data;
          var error = (answer && answer.error) || {};
          var details = (error.details || [])
            .map(function (d) {
              return d.field + ' ' + d.message;
            })
            .join('; ');
          throw new Error(details || error.message || 'The request failed (HTTP ' + res.status + ')');
        });
    });
  }

  function field(name) {
    return form.elements.namedItem(name).value;
  }

  function noToken() {
    show('This link is incomplete: open the link from the mail again.', 'error');
    if (form) form.hidden = true;
  }

  var pages = {
    'verify-email': function () {
      if (!token) return noToken();
      post('/api/auth/verify-email', { token: token }).then(
        function (data) {
          show(data.message + '. You can close this page.', 'done');
        },
        function (err) {
          show(err.message, 'error');
        },
      );
    },
    'reset-password': function () {
      if (!token) return noToken();
      form.addEventListener('submit', function (event) {
        event.preventDefault();
        if (field('password') !== field('repeat')) return show('The two passwords differ.', 'error');
        form.querySelector('button').disabled = true;
        post('/api/auth/reset-password', { token: token, password: field('password') }).then(
          function (data) {
            form.hidden = true;
            show(data.message + '.', 'done');
          },
          function (err) {
            form.querySelector('button').disabled = false;
            show(err.message, 'error');
          },
        );
      });
    },
    'accept-invitation': function () {
      if (!token) return noToken();
      form.addEventListener('submit', function (event) {
        event.preventDefault();
        form.querySelector('button').disabled = true;
        post('/api/auth/login', { email: field('email'), password: field('password') })
          .then(function (login) {
            if (login.token || !login.challenge_token) return login;
            if (!field('code')) throw new Error('This account uses two-factor sign-in: enter the code from your authenticator app.');
            return post('/api/auth/mfa/challenge', { challenge_token: login.challenge_token, code: field('code') });
          })
          .then(function (session) {
            return post('/api/organizations/invitations/accept', { token: token }, session.token);
          })
          .then(
            function (membership) {
              form.hidden = true;
              show('You are now a member, as ' + membership.role + '. You can sign in to the platform.', 'done');
            },
            function (err) {
              form.querySelector('button').disabled = false;
              show(err.message, 'error');
            },
          );
      });
    },
  };

  var run = pages[document.body.getAttribute('data-page')];
  if (run) run();
})();
