// Still imported by test/cli (another owner): the sandbox's sites now come from test/support.
export { serviceSites as sandboxSites, type SandboxSite } from '../support/service-state';
