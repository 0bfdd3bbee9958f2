import { Page } from '../../ui/page';

export function ItemPage(_props: { collection: string; id: string }) {
  return <Page title="ItemPage">Coming soon.</Page>;
}
