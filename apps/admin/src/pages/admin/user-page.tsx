import { Page } from '../../ui/page';

export function UserPage(_props: { id: string }) {
  return <Page title="UserPage">Coming soon.</Page>;
}
