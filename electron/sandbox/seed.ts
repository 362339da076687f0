// The sandbox's starting data. 'demo' is a small WISP in Montana's Gallatin Valley (25 tower sites,
// 4 Multi Maps, 50 EUS submissions near the towers); 'empty' is the demo account alone. Both are
// built from literals and index arithmetic only, so every start gives byte-identical state.
import type { PinStyle } from '../shared/domain';
import type { RenderingQualityEntry, SandboxAccount, SandboxMultiMap, SandboxSite, SandboxState, SandboxSubmission } from './state';

export type Seed = 'demo' | 'empty';

export const DEMO_ACCOUNT = { account: '10001', key: 'sandbox-demo-key' } as const;

/** The demo account's quota at every seed. */
export const DEMO_CALLS = 100_000;

const SEEDED_AT = '2024-05-01T15:00:00.000Z';

/** The list GetRenderingQualityList returns. Error is present and empty ('' → <Error />). */
export const RENDERING_QUALITIES: readonly RenderingQualityEntry[] = [
  { id: 1, name: 'Low', error: '' },
  { id: 2, name: 'Medium', error: '' },
  { id: 3, name: 'High', error: '' },
  { id: 4, name: 'Very High', error: '' },
];

function demoAccount(): SandboxAccount {
  return {
    id: DEMO_ACCOUNT.account,
    key: DEMO_ACCOUNT.key,
    name: 'Gallatin Sky Wireless (sandbox demo)',
    callsLeft: DEMO_CALLS,
    recipients: ['noc@gallatinsky.example', 'installs@gallatinsky.example'],
    eusApiUrl: null,
  };
}

// name, latitude, longitude, height (m), group, pin style, description
const SITES: readonly [string, number, number, number, string, PinStyle, string][] = [
  ['Bozeman Hill', 45.6312, -111.0238, 30, 'Bozeman Core', 1, 'Self-support tower above Kagy Blvd; 5 GHz sectors north and west.'],
  ['Sourdough Ridge', 45.6044, -110.9941, 24, 'Bozeman Core', 1, 'Monopole on the water tank road.'],
  ['MSU Grain Bin', 45.6633, -111.0761, 18, 'Bozeman Core', 3, 'Rooftop-style mount on a grain bin; landlord asks 48 h notice.'],
  ['Downtown Baxter', 45.6797, -111.0386, 15, 'Bozeman Core', 4, 'Rooftop, 60 GHz distribution for downtown.'],
  ['North 7th Water Tower', 45.6952, -111.0431, 36, 'Bozeman Core', 2, 'City water tower lease.'],
  ['Bridger Canyon', 45.7391, -110.9384, 27, 'Bridger', 1, 'Canyon mouth; shadows the east side of the canyon.'],
  ['Bridger Bowl Base', 45.8174, -110.8982, 21, 'Bridger', 2, 'Seasonal access; solar plus generator.'],
  ['Belgrade Elevator', 45.7761, -111.1772, 42, 'Gallatin Valley', 1, 'Grain elevator; backhaul hub for the west valley.'],
  ['Airport Road', 45.7948, -111.1529, 30, 'Gallatin Valley', 1, 'Height limited by the airport approach path.'],
  ['Four Corners', 45.6290, -111.1860, 33, 'Gallatin Valley', 3, 'Lattice tower behind the feed store.'],
  ['Gallatin Gateway', 45.5929, -111.1955, 24, 'Gallatin Valley', 1, 'Covers the canyon mouth and Cottonwood Rd.'],
  ['Amsterdam', 45.7585, -111.3197, 27, 'Gallatin Valley', 2, 'Dairy silo mount.'],
  ['Manhattan Water Tower', 45.8566, -111.3327, 36, 'Gallatin Valley', 1, 'Town water tower.'],
  ['Logan Hill', 45.8846, -111.4330, 45, 'Gallatin Valley', 4, 'Hilltop relay for Three Forks.'],
  ['Three Forks', 45.8924, -111.5519, 30, 'Headwaters', 1, 'Monopole at the rodeo grounds.'],
  ['Willow Creek', 45.8246, -111.6436, 21, 'Headwaters', 2, 'Farm tower, one sector south.'],
  ['Harrison', 45.6994, -111.7847, 18, 'Madison Valley', 3, 'Pole on the school gym.'],
  ['Pony Ridge', 45.6577, -111.8933, 24, 'Madison Valley', 1, 'Ridge relay; winter access by snowmobile.'],
  ['Ennis', 45.3494, -111.7294, 33, 'Madison Valley', 1, 'Lattice tower north of town.'],
  ['Big Sky Meadow', 45.2633, -111.3087, 27, 'Big Sky', 2, 'Meadow village; shares a tower with a radio station.'],
  ['Big Sky Mountain Village', 45.2847, -111.3683, 12, 'Big Sky', 4, 'Building mount, 60 GHz to the condos.'],
  ['Livingston', 45.6621, -110.5610, 39, 'Paradise Valley', 1, 'Hill east of the Yellowstone River.'],
  ['Clyde Park', 45.8866, -110.6052, 24, 'Paradise Valley', 3, 'Shields Valley coverage.'],
  ['Wilsall', 46.0130, -110.6477, 21, 'Paradise Valley', 1, 'Grain bin mount.'],
  ['Emigrant', 45.3679, -110.7210, 30, 'Paradise Valley', 2, 'Covers the valley floor south of Pray.'],
];

const FIRST_SITE_ID = 100001;

function demoSites(): SandboxSite[] {
  return SITES.map(([name, latitude, longitude, height, group, pinStyle, description], i) => ({
    id: String(FIRST_SITE_ID + i),
    account: DEMO_ACCOUNT.account,
    name,
    height,
    latitude,
    longitude,
    description,
    group,
    pinStyle,
    createdAt: SEEDED_AT,
    updatedAt: SEEDED_AT,
  }));
}

const MULTI_MAPS: readonly [string, string][] = [
  ['4101', 'Gallatin Valley 5 GHz'],
  ['4102', 'Bozeman CBRS'],
  ['4103', 'Paradise Valley'],
  ['4104', 'Town core 60 GHz'],
];

function demoMultiMaps(): SandboxMultiMap[] {
  return MULTI_MAPS.map(([id, name]) => ({ id, account: DEMO_ACCOUNT.account, name }));
}

// Streets per town: [town, ZIP, Multi Map, streets, the demo site index the homes sit near].
const TOWNS: readonly [string, string, string, readonly string[], number][] = [
  ['Bozeman', '59715', '4102', ['S Willson Ave', 'W Babcock St', 'S 3rd Ave', 'Durston Rd', 'Fowler Ln', 'Kagy Blvd'], 0],
  ['Bozeman', '59718', '4104', ['W Main St', 'N 7th Ave', 'Oak St', 'Baxter Ln'], 4],
  ['Belgrade', '59714', '4101', ['E Main St', 'Jackrabbit Ln', 'Cruiser Ln', 'Alaska Rd'], 7],
  ['Manhattan', '59741', '4101', ['Railroad Ave', 'Wooden Shoe Ln', 'Dry Creek Rd'], 12],
  ['Three Forks', '59752', '4101', ['Main St', 'Old Town Rd', 'Ash St'], 14],
  ['Gallatin Gateway', '59730', '4101', ['Cottonwood Rd', 'Mill St', 'Axtell Anceney Rd'], 10],
  ['Livingston', '59047', '4103', ['W Park St', 'S B St', 'Swingle Rd', 'Mission Creek Rd'], 21],
  ['Clyde Park', '59018', '4103', ['Shields River Rd', '1st Ave'], 22],
];

const SURNAMES = ['Alvarez', 'Bauer', 'Chen', 'Dubois', 'Ekstrom', 'Fraser', 'Gallagher', 'Hansen', 'Iverson', 'Jorgensen', 'Kowalski', 'Lindqvist', 'Martinez', 'Novak', 'Olsen', 'Petersen', 'Quinn', 'Running Crane'];
const INITIALS = 'ABCDEGHJKLMNPRSTW';

function demoSubmissions(): SandboxSubmission[] {
  const submissions: SandboxSubmission[] = [];
  for (let i = 0; i < 50; i++) {
    const [town, zip, multiMapId, streets, siteIndex] = TOWNS[i % TOWNS.length]!;
    const site = SITES[siteIndex]!;
    const street = streets[Math.floor(i / TOWNS.length) % streets.length]!;
    const houseNumber = 100 + ((i * 137) % 2900);
    // Spread homes 0.5–3 km around the tower with fixed offsets (no randomness in the seed).
    const dLat = (((i * 37) % 41) - 20) * 0.0012;
    const dLon = (((i * 53) % 43) - 21) * 0.0016;
    const day = 1 + (i % 28);
    const month = 1 + Math.floor(i / 28);
    const submittedAt = `2024-0${month}-${String(day).padStart(2, '0')}T${String(8 + (i % 10)).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}:00.000Z`;
    submissions.push({
      processId: String(880101 + i * 3),
      account: DEMO_ACCOUNT.account,
      name: `${INITIALS[i % INITIALS.length]}. ${SURNAMES[(i * 5) % SURNAMES.length]}`,
      address: `${houseNumber} ${street}, ${town}, MT ${zip}`,
      latitude: Math.round((site[1] + dLat) * 1e6) / 1e6,
      longitude: Math.round((site[2] + dLon) * 1e6) / 1e6,
      multiMapId,
      submittedAt,
      processedAt: submittedAt,
      reprocessHistory: [],
    });
  }
  return submissions;
}

export function seedState(seed: Seed): SandboxState {
  const demo = seed === 'demo';
  return {
    version: 1,
    accounts: [demoAccount()],
    sites: demo ? demoSites() : [],
    multiMaps: demo ? demoMultiMaps() : [],
    submissions: demo ? demoSubmissions() : [],
    renderingQualities: RENDERING_QUALITIES.map((quality) => ({ ...quality })),
    mail: [],
    pushes: [],
    nextSiteId: FIRST_SITE_ID + (demo ? SITES.length : 0),
    calls: [],
  };
}
