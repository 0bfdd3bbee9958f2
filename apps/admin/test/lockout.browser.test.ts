import request from 'supertest';
import { ADMIN } from './support/platform-process';
import { checkPage, describeBrowser, openContext, see } from './support/browser';
import { mailedLink } from './support/mail';
import { createUser } from './support/api';
import { signIn } from './support/sign-in';
import { browserSuite } from './support/suite';

// Login protection in the app (device cookies): an owner whose account is under attack still signs in from their
// browser, gets back in from a reset link without changing the password, sees and forgets their devices; an admin
// unlocks; during a spray the sign-in form solves the proof of work by itself.
describeBrowser('admin app: a lockout an attacker cannot turn against the owner', () => {
  const suite = browserSuite({ env: { AUTH_LOGIN_ATTEMPTS: '3', AUTH_SPRAY_THRESHOLD: '20', AUTH_POW_DIFFICULTY: '12' } });
  const PASSWORD = 'owner-password-1';
  const attack = async (email: string, n = 3) => {
    for (let i = 0; i < n; i++)
      expect(
        (
          await request(suite.platform.url)
            .post('/auth/login')
            .send({ email, password: `guess-${i}` })
        ).status,
      ).toBe(401);
  };
  const open = (start?: string) => openContext(suite.browser, suite.platform.url, start);
  const tryToSignIn = async (page: import('playwright-core').Page, email: string, password: string) => {
    if (!/\/admin\/login/.test(page.url())) await page.goto('/admin/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  it('the owner’s browser signs in while the account is attacked; another browser does not; the profile lists the devices', async () => {
    const { email } = await createUser(suite.platform.url, ADMIN, { prefix: 'owner', password: PASSWORD });
    const mine = await open();
    await signIn(mine.page, email, PASSWORD);
    await mine.page.getByRole('button', { name: 'Sign out' }).click();
    await attack(email);
    await signIn(mine.page, email, PASSWORD);

    const other = await open();
    await tryToSignIn(other.page, email, PASSWORD);
    await see(other.page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password.' }));
    await other.close();

    await mine.page.goto('/admin/profile');
    const devices = mine.page.getByRole('region', { name: 'Trusted devices' });
    await see(devices.getByText('(this browser)'));
    await checkPage(mine, 'profile-devices');
    await devices.getByRole('button', { name: /^Forget / }).click();
    await see(devices.getByText('No trusted device yet.'));
    await mine.close();
  });

  it('a reset link trusts the browser that opens it: the owner signs in with the old password', async () => {
    const { email } = await createUser(suite.platform.url, ADMIN, { prefix: 'reset-owner', password: PASSWORD });
    await attack(email);
    const app = await open('/admin/forgot-password');
    await app.page.getByLabel('E-mail').fill(email);
    await app.page.getByRole('button', { name: 'Send the reset link' }).click();
    const link = await mailedLink(suite.platform.dataDir, email, '/admin/reset-password?token=');
    await app.page.goto(link);
    await see(app.page.getByText('This browser is now trusted'));
    await checkPage(app, 'reset-password-trusted');
    await signIn(app.page, email, PASSWORD);
    await app.close();
  });

  it('an admin unlocks a user from the user’s page: any browser signs in again', async () => {
    const { email, id } = await createUser(suite.platform.url, ADMIN, { prefix: 'unlock', password: PASSWORD });
    await attack(email);
    const admin = await open();
    await signIn(admin.page, ADMIN.email, ADMIN.password);
    await admin.page.goto(`/admin/users/${id}`);
    const devices = admin.page.getByRole('region', { name: 'Trusted devices' });
    await devices.getByRole('button', { name: 'Unlock sign-in' }).click();
    await devices.getByRole('button', { name: 'Yes, unlock' }).click();
    await see(devices.getByRole('status').filter({ hasText: 'can sign in from anywhere again' }));
    await checkPage(admin, 'user-unlock');
    await admin.close();
    const fresh = await open();
    await signIn(fresh.page, email, PASSWORD);
    await fresh.close();
  });

  it('during a password spray the form proves its work by itself (the login carries `pow`)', async () => {
    const { email } = await createUser(suite.platform.url, ADMIN, { prefix: 'spray', password: PASSWORD });
    for (let i = 0; i < 20; i++)
      await request(suite.platform.url)
        .post('/auth/login')
        .send({ email: `sprayed-${i}@example.com`, password: 'Winter2026!' });
    const asked = await request(suite.platform.url).post('/auth/login').send({ email, password: PASSWORD });
    expect(asked.body.errors[0].extensions.code).toBe('PROOF_OF_WORK_REQUIRED');
    const app = await open();
    const bodies: string[] = [];
    app.page.on('request', (r) => {
      if (r.url().endsWith('/auth/login')) bodies.push(r.postData() ?? '');
    });
    await signIn(app.page, email, PASSWORD);
    expect(bodies).toHaveLength(2);
    expect(JSON.parse(bodies[1]!).pow).toMatch(/^[\w.-]+:\d+$/);
    await app.close();
  });
});
