/**
 * The 12 logins every primary fixture yields (../shared/fixtures/imports/SOURCES.md, "Expected
 * logins shared by all seven primary files"), copied from there: [name, url, username, password].
 */
export const EXPECTED_LOGINS: readonly { name: string; url: string; username: string; password: string }[] = [
  {
    name: 'aib',
    url: 'https://onlinebanking.aib.ie',
    username: 'dpbx@fner.ws',
    password: "ws5T@;_UB[Q|P!8'`~z%XC'JHFUbf#IX _E0}:HF,[{ei0hBg14",
  },
  { name: 'dpbx@afoqwdr.tx', url: 'https://afoqwdr.tx', username: 'dpbx', password: '9KVHnx:.S_S;cF`=CE@e\\p{v6' },
  { name: 'dpbx@fner.ws', url: '', username: 'dpbx', password: "mt}h'hSUCY;SU;;A!l[8y3O:8" },
  { name: 'dpbx@klivak.xb', url: '', username: 'dpbx', password: '2cUqe}e9}>IVZf)Ye>3C8ZN,r' },
  { name: 'dpbx@mnyfymt.ws', url: 'https://mail.mnyfymt.ws', username: 'dpbx', password: 'rPCkmNkhIa>{izt3C3F823!Go' },
  { name: 'empty password', url: 'https://nhysdo.wg', username: 'vkeelpbu', password: '' },
  {
    name: 'https://news.ycombinator.com',
    url: 'https://news.ycombinator.com',
    username: 'ostqxi',
    password: "1)Btf2EI~Tfb7g2A!Sy',*Sj#",
  },
  { name: 'mastodon.social', url: 'https://mastodon.social/', username: 'ostqxi', password: "D<INNeT?#?Bf4%`zA/4i!/'$T" },
  { name: 'ovh.com', url: 'https://www.ovh.com/manager/web/', username: 'bynbyjhqjz', password: "3Z-VW!i,j(&!zRGPu(hFe]s'(" },
  { name: 'ovh.com', url: 'https://www.ovh.com/manager/web/', username: 'jsdkyvbwjn', password: '^Vr/|o>_H8X%T]7>f}7|:U!Zs' },
  { name: 'space title', url: 'https://nhysdo.wg', username: 'vkeelpbu', password: ']stDKo{%pk' },
  { name: 'twitter.com', url: 'https://twitter.com/', username: 'ostqxi', password: 'SoNEwvU,kJ%-cIKJ9[c#S;]jB' },
];

/** The logins of a result as the same quadruples, sorted like EXPECTED_LOGINS. */
export function loginQuadruples(
  items: readonly { type: string; name: string; urls: string[]; username: string; password: string }[],
) {
  return items
    .filter((item) => item.type === 'login')
    .map((item) => ({ name: item.name, url: item.urls[0] ?? '', username: item.username, password: item.password }))
    .sort((a, b) => (a.name === b.name ? a.username.localeCompare(b.username) : a.name < b.name ? -1 : 1));
}
