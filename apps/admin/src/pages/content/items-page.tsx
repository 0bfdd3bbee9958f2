import { Page } from '../../ui/page';

export function ItemsPage(_props: { collection: string; query: URLSearchParams }) {
  return <Page title="ItemsPage">Coming soon.</Page>;
}
