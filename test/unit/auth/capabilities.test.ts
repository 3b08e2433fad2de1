import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { can, canManageCategories, canManageTags, ROLES, type Capability, type Role } from '../../../src/domain/auth/capabilities.ts';
import { canDeleteRecord, canEditRecord, canReadRecord } from '../../../src/domain/auth/record-permissions.ts';
import type { Status } from '../../../src/domain/status.ts';

const principal = (role: Role, id = 10) => ({ id, role });

describe('role capabilities (40 §2)', () => {
  const expected: Record<Capability, Role[]> = {
    read: ['administrator', 'editor', 'author', 'contributor', 'subscriber'],
    edit_posts: ['administrator', 'editor', 'author', 'contributor'],
    delete_posts: ['administrator', 'editor', 'author', 'contributor'],
    publish_posts: ['administrator', 'editor', 'author'],
    edit_published_posts: ['administrator', 'editor', 'author'],
    delete_published_posts: ['administrator', 'editor', 'author'],
    edit_others_posts: ['administrator', 'editor'],
    delete_others_posts: ['administrator', 'editor'],
    read_private_posts: ['administrator', 'editor'],
    edit_private_posts: ['administrator', 'editor'],
    delete_private_posts: ['administrator', 'editor'],
    upload_files: ['administrator', 'editor', 'author'],
    manage_categories: ['administrator', 'editor'],
    unfiltered_html: ['administrator', 'editor'],
    list_users: ['administrator'],
    create_users: ['administrator'],
    delete_users: ['administrator'],
  };
  for (const [capability, roles] of Object.entries(expected) as [Capability, Role[]][]) {
    test(capability, () => {
      assert.deepEqual(ROLES.filter((role) => can(principal(role), capability)), roles);
      assert.equal(can(null, capability), false);
    });
  }
  test('derived term rights', () => {
    assert.deepEqual(ROLES.filter((role) => canManageCategories(principal(role))), ['administrator', 'editor', 'author']);
    assert.deepEqual(ROLES.filter((role) => canManageTags(principal(role))), ['administrator', 'editor']);
  });
});

describe('object rules (40 §5)', () => {
  const own = (status: Status, preTrashStatus: Status | null = null) => ({ author: 10, status, preTrashStatus });
  const others = (status: Status) => ({ author: 99, status, preTrashStatus: null });
  const allowed = (rule: typeof canEditRecord, record: ReturnType<typeof own>) => ROLES.filter((role) => rule(principal(role), record));

  test('edit: own drafts for contributors, own published for authors, everything for editors', () => {
    assert.deepEqual(allowed(canEditRecord, own('draft')), ['administrator', 'editor', 'author', 'contributor']);
    assert.deepEqual(allowed(canEditRecord, own('private')), ['administrator', 'editor', 'author', 'contributor']);
    assert.deepEqual(allowed(canEditRecord, own('publish')), ['administrator', 'editor', 'author']);
    assert.deepEqual(allowed(canEditRecord, own('future')), ['administrator', 'editor', 'author']);
    assert.deepEqual(allowed(canEditRecord, own('trash', 'draft')), ['administrator', 'editor', 'author', 'contributor']);
    assert.deepEqual(allowed(canEditRecord, own('trash', 'publish')), ['administrator', 'editor', 'author']);
    for (const status of ['draft', 'pending', 'private', 'publish', 'future', 'trash'] as const) {
      assert.deepEqual(allowed(canEditRecord, others(status)), ['administrator', 'editor'], status);
    }
    assert.equal(canEditRecord(null, own('draft')), false);
  });

  test('delete mirrors edit with the delete capabilities', () => {
    assert.deepEqual(allowed(canDeleteRecord, own('pending')), ['administrator', 'editor', 'author', 'contributor']);
    assert.deepEqual(allowed(canDeleteRecord, own('publish')), ['administrator', 'editor', 'author']);
    assert.deepEqual(allowed(canDeleteRecord, others('draft')), ['administrator', 'editor']);
  });

  test('records with author 0 belong to nobody', () => {
    const orphan = { author: 0, status: 'draft' as Status, preTrashStatus: null };
    assert.equal(canEditRecord({ id: 0, role: 'contributor' }, orphan), false);
  });

  test('read: published for all, own for signed-in users, others only for editors', () => {
    assert.equal(canReadRecord(null, others('publish')), true);
    assert.equal(canReadRecord(null, others('draft')), false);
    assert.equal(canReadRecord(principal('subscriber'), own('draft')), true);
    assert.deepEqual(ROLES.filter((role) => canReadRecord(principal(role), others('private'))), ['administrator', 'editor']);
    assert.deepEqual(ROLES.filter((role) => canReadRecord(principal(role), others('future'))), ['administrator', 'editor']);
  });
});
