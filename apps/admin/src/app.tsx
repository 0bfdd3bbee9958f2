import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { match, navigate, useRoute } from './router/router';
import { Link } from './router/link';
import { loadMe, sessionError, signOut, useMe, type Me } from './session/session';
import { Icon, type IconName } from './ui/icon';
import { Alert, Page } from './ui/page';
import { SignInPage } from './pages/account/sign-in-page';
import { ForgotPasswordPage } from './pages/account/forgot-password-page';
import { AcceptInvitePage, ResetPasswordPage } from './pages/account/token-pages';
import { ProfilePage } from './pages/account/profile-page';
import { UsersPage } from './pages/admin/users-page';
import { UserPage } from './pages/admin/user-page';
import { RolesPage } from './pages/admin/roles-page';
import { PermissionsPage } from './pages/admin/permissions-page';
import { CollectionsPage } from './pages/content/collections-page';
import { ItemsPage } from './pages/content/items-page';
import { ItemPage } from './pages/content/item-page';
import { DataModelPage } from './pages/data-model/data-model-page';
import { ActivityPage } from './pages/activity/activity-page';

type Route = { pattern: string; admin?: boolean; render: (params: Record<string, string>, query: URLSearchParams, me: Me) => ComponentChildren };

/** Pages of a signed-in user (admin: the administrator role only; the API enforces it either way). */
const ROUTES: Route[] = [
  { pattern: '/', render: () => <CollectionsPage /> },
  { pattern: '/content', render: () => <CollectionsPage /> },
  { pattern: '/content/:collection', render: (p, q) => <ItemsPage collection={p.collection} query={q} /> },
  { pattern: '/content/:collection/:id', render: (p) => <ItemPage collection={p.collection} id={p.id} /> },
  { pattern: '/data-model/:collection', admin: true, render: (p) => <DataModelPage collection={p.collection} /> },
  { pattern: '/activity', render: (_p, q) => <ActivityPage query={q} /> },
  { pattern: '/profile', render: (_p, _q, me) => <ProfilePage me={me} /> },
  { pattern: '/users', admin: true, render: (_p, q) => <UsersPage query={q} /> },
  { pattern: '/users/:id', admin: true, render: (p) => <UserPage id={p.id} /> },
  { pattern: '/roles', admin: true, render: () => <RolesPage /> },
  { pattern: '/permissions', admin: true, render: (_p, q) => <PermissionsPage query={q} /> },
];

/** Pages that work without a session (the links of the mails land here). */
function publicPage(path: string, query: URLSearchParams): ComponentChildren | undefined {
  if (path === '/login') return <SignInPage next={query.get('next') ?? undefined} notice={query.get('notice') ?? undefined} />;
  if (path === '/forgot-password') return <ForgotPasswordPage />;
  if (path === '/reset-password') return <ResetPasswordPage token={query.get('token')} />;
  if (path === '/accept-invite') return <AcceptInvitePage token={query.get('token')} />;
  return undefined;
}

function Nav({ me, path }: { me: Me; path: string }) {
  const items: [string, string, IconName][] = [
    ['/content', 'Content', 'content'],
    ['/activity', 'Activity', 'activity'],
    ...(me.admin
      ? ([
          ['/users', 'Users', 'users'],
          ['/roles', 'Roles', 'roles'],
          ['/permissions', 'Permissions', 'permissions'],
        ] as [string, string, IconName][])
      : []),
    ['/profile', 'Profile', 'profile'],
  ];
  const here = (to: string) => path === to || path.startsWith(`${to}/`) || (to === '/content' && path === '/');
  return (
    <nav aria-label="Main" class="main-nav">
      <ul>
        {items.map(([to, label, icon]) => (
          <li key={to}>
            <Link to={to} current={here(to)}>
              <Icon name={icon} />
              {label}
            </Link>
          </li>
        ))}
      </ul>
      <p class="who">
        Signed in as <strong>{me.email}</strong>
        {me.roleName ? ` (${me.roleName})` : ''}{' '}
        <button
          type="button"
          class="secondary"
          onClick={async () => {
            await signOut(() => navigate('/login', { replace: true }));
          }}
        >
          Sign out
        </button>
      </p>
    </nav>
  );
}

function Frame({ children, nav }: { children: ComponentChildren; nav?: ComponentChildren }) {
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <p class="brand">
          <Icon name="logo" />
          Vellum
        </p>
        {nav}
      </header>
      <main id="main">{children}</main>
    </>
  );
}

export function App() {
  const { path, query } = useRoute();
  const pub = publicPage(path, query);
  const me = useMe(!pub);
  const needsSignIn = !pub && me === null;
  useEffect(() => {
    if (needsSignIn) navigate(`/login?next=${encodeURIComponent(path)}`, { replace: true });
  }, [needsSignIn, path]);
  if (pub) return <Frame>{pub}</Frame>;
  if (me === undefined && sessionError()) {
    return (
      <Frame>
        <Page title="Vellum is not answering">
          <Alert>{sessionError()}</Alert>
          <button type="button" onClick={() => loadMe().catch(() => undefined)}>
            Try again
          </button>
        </Page>
      </Frame>
    );
  }
  if (me === undefined)
    return (
      <Frame>
        <p role="status">Loading…</p>
      </Frame>
    );
  if (me === null) return <Frame>{null}</Frame>;
  for (const r of ROUTES) {
    const params = match(r.pattern, path);
    if (!params) continue;
    const body =
      r.admin && !me.admin ? (
        <Page title="Not available">
          <Alert>This page is for administrators. Your role does not give access to it.</Alert>
        </Page>
      ) : (
        r.render(params, query, me)
      );
    return <Frame nav={<Nav me={me} path={path} />}>{body}</Frame>;
  }
  return (
    <Frame nav={<Nav me={me} path={path} />}>
      <Page title="Page not found">
        <p>
          There is no page at this address. <Link to="/">Go to the start page</Link>.
        </p>
      </Page>
    </Frame>
  );
}
