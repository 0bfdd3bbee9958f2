import { Page } from '../../ui/page';

export function PermissionsPage(_props: { query: URLSearchParams }) {
  return <Page title="PermissionsPage">Coming soon.</Page>;
}
