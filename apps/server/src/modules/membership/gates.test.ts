import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Right } from '@cadcloud/contracts';
import { asciiStl } from '../../../../../packages/model3d/src/fixtures/mesh.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { sampleDxf } from '../../test/dxf-fixtures.ts';
import { createTestApp, type Envelope, type TestApp } from '../../test/fixtures.ts';
import { makeZip } from '../unzip/test-archives.ts';
import { createMembershipService } from './membership.service.ts';

type User = { id: string; token: string };

/**
 * Every gated action that exists today (issue 22 part 2), table-driven: refused for a free account with the feature's
 * own code and message, allowed for a member whose plan carries the right, and allowed for everyone once the operator
 * opens the gate (RIGHTS_OPEN_TO_ALL). Each feature keeps its free count; here the counts are 0 so the gate shows.
 */
const gates: { right: Right; plan: string; code: string; msg: string; act: (t: TestApp, u: User) => Promise<Envelope> }[] = [
  {
    right: 'conversion', plan: 'ML1', code: 'conversion.monthlyLimit',
    msg: "A free account can convert 0 files a month and this month's are used up. Upgrade to premium to convert more",
    act: async (t, u) => {
      const f = (await t.upload(u.token, 'plan.dxf', sampleDxf())).bizData;
      return t.call('/cloud/v5/file/task/transformBatch', { fileIds: [f.id], target: 'pdf' }, u.token);
    },
  },
  {
    right: 'model3d', plan: 'ML3', code: 'model3d.trialsUsed',
    msg: 'Your free 3D conversion trials are used up; upgrade to super membership to convert more',
    act: async (t, u) => {
      const f = (await t.upload(u.token, 'cube.stl', Buffer.from(asciiStl()))).bizData;
      return t.call('/cloud/v5/file/task/transformBatch3D', { fileIds: [f.id], isTransForm: true }, u.token);
    },
  },
  {
    right: 'unzip', plan: 'ML1', code: 'unzip.membersOnly',
    msg: 'Cloud decompression is for members only on this server. Upgrade to premium to decompress archives',
    act: async (t, u) => {
      const f = (await t.upload(u.token, 'a.zip', Buffer.from(await makeZip([{ name: 'x.txt', data: new Uint8Array([1]) }])))).bizData;
      return t.call('/cloud/v5/file/detectUnzip', { fileId: f.id }, u.token);
    },
  },
  {
    right: 'groups', plan: 'ML1', code: 'group.membersOnly',
    msg: 'A free account can create 0 groups. Upgrade to premium to create more',
    act: (t, u) => t.call('/cloud/v5/group/create', { name: 'Team', introduction: '' }, u.token),
  },
];

const GATES_ON = { FREE_CONVERSIONS_PER_MONTH: '0', FREE_3D_TRIALS: '0', UNZIP_MEMBERS_ONLY: 'true', FREE_GROUPS: '0' };

for (const driver of testDatabaseDrivers()) {
  describe(`gated actions on ${driver.name}`, () => {
    let gated: TestApp;
    let open: TestApp;
    beforeAll(async () => {
      gated = await createTestApp(driver, GATES_ON);
      open = await createTestApp(driver, { ...GATES_ON, RIGHTS_OPEN_TO_ALL: 'all' });
    });
    afterAll(async () => {
      await gated?.close();
      await open?.close();
    });

    for (const g of gates) {
      it(`${g.right}: refused for a free account (${g.code}), allowed for ${g.plan}, for everyone when the operator opens it`, async () => {
        const free = await gated.createUser();
        const refused = await g.act(gated, free);
        expect([refused.bizData?.code, refused.msg]).toEqual([g.code, g.msg]);

        const member = await gated.createUser();
        await createMembershipService(gated.deps).grant(member.id, g.plan, { source: 'admin', sourceId: `gate-${member.id}` });
        const allowed = await g.act(gated, member);
        expect(allowed.rtnCode, JSON.stringify(allowed)).toBe('0000000');

        const anyone = await open.createUser();
        const openAnswer = await g.act(open, anyone);
        expect(openAnswer.rtnCode, JSON.stringify(openAnswer)).toBe('0000000');
      });
    }

    it('3D conversion needs the super membership: premium (ML1) is refused; an expired super membership is refused again', async () => {
      const premium = await gated.createUser();
      await createMembershipService(gated.deps).grant(premium.id, 'ML1', { source: 'admin', sourceId: `p-${premium.id}` });
      expect((await gates[1].act(gated, premium)).bizData?.code).toBe('model3d.trialsUsed');
      const lapsed = await gated.createUser();
      await createMembershipService(gated.deps).grant(lapsed.id, 'ML3', { source: 'admin', sourceId: `l-${lapsed.id}`, now: Date.now() - 31 * 86_400_000 });
      expect((await gates[1].act(gated, lapsed)).bizData?.code).toBe('model3d.trialsUsed');
    });

    it("the user state's rights follow the same answers", async () => {
      const free = await gated.createUser();
      expect((await gated.call('/user/v5/sysuser/userInfo', {}, free.token)).bizData.rights).toEqual({ groups: false, annotation: false, viewerTools: false, conversion: false, model3d: false, adFree: false, unzip: false });
      const anyone = await open.createUser();
      expect(Object.values((await open.call('/user/v5/sysuser/userInfo', {}, anyone.token)).bizData.rights).every(Boolean)).toBe(true);
    });
  });
}
