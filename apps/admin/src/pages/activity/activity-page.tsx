import { Page } from '../../ui/page';

export function ActivityPage(_props: { query: URLSearchParams }) {
  return <Page title="ActivityPage">Coming soon.</Page>;
}
