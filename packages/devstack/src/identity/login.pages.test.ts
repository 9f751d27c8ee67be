import { errorPage, loginPage } from './login.pages';

test('when the login page echoes the username and the error, then both are HTML-escaped inside a form that posts to the interaction', () => {
  const html = loginPage({ action: '/realms/destiny/login-actions/abc', realm: 'destiny', clientId: 'client', username: '"><script>x</script>', error: 'bad <b>' });
  expect(html).toContain('<form id="kc-form-login" method="post" action="/realms/destiny/login-actions/abc">');
  expect(html).toContain('value="&#34;&#62;&#60;script&#62;x&#60;/script&#62;"');
  expect(html).toContain('bad &#60;b&#62;');
  expect(html).not.toContain('<script>');
});

test('when an error page is rendered, then its message is escaped', () => {
  expect(errorPage('Oops', "it's <bad>")).toContain('it&#39;s &#60;bad&#62;');
});
