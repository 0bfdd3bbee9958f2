import { Page } from '../../ui/page';

export function CollectionsPage(_props: object) {
  return <Page title="CollectionsPage">Coming soon.</Page>;
}
