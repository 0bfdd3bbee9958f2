import { Page } from '../../ui/page';

export function UsersPage(_props: { query: URLSearchParams }) {
  return <Page title="UsersPage">Coming soon.</Page>;
}
