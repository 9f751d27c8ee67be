// Minimal HTML pages for the development realm: a login form that works as a plain form post,
// an error page, and the logout confirmation. No scripts, no external assets.

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}label,input,button{display:block;width:100%;margin:.4rem 0}.error{color:#b00020}</style>',
    '</head>',
    `<body>${body}</body>`,
    '</html>',
  ].join('\n');
}

export interface LoginPageOptions {
  /** Where the form posts to (the interaction URL). */
  action: string;
  realm: string;
  clientId: string;
  username?: string;
  error?: string;
}

export function loginPage(options: LoginPageOptions): string {
  const error = options.error ? `<p class="error" id="input-error">${escapeHtml(options.error)}</p>` : '';
  return page(
    `Sign in to ${options.realm}`,
    [
      `<h1>Sign in to ${escapeHtml(options.realm)}</h1>`,
      `<p>Client: ${escapeHtml(options.clientId)}</p>`,
      error,
      `<form id="kc-form-login" method="post" action="${escapeHtml(options.action)}">`,
      '<label for="username">Username</label>',
      `<input id="username" name="username" type="text" autocomplete="username" autofocus value="${escapeHtml(options.username ?? '')}">`,
      '<label for="password">Password</label>',
      '<input id="password" name="password" type="password" autocomplete="current-password">',
      '<button type="submit" name="login" value="Sign In">Sign In</button>',
      '</form>',
    ].join('\n'),
  );
}

export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p class="error">${escapeHtml(message)}</p>`);
}

/** `form` is oidc-provider's own logout form (hidden inputs included); it is trusted HTML. */
export function logoutPage(form: string): string {
  return page(
    'Sign out',
    [
      '<h1>Do you want to sign out?</h1>',
      form,
      '<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>',
      '<button type="submit" form="op.logoutForm">Stay signed in</button>',
    ].join('\n'),
  );
}

export function loggedOutPage(): string {
  return page('Signed out', '<h1>You are signed out</h1>');
}
