import { Page } from '../../ui/page';

export function RolesPage(_props: object) {
  return <Page title="RolesPage">Coming soon.</Page>;
}
