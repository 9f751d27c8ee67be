// Makes the percolator index match the automations collection: every recorded automation is
// (re)stored, and index entries without a record (a registration that crashed half-way) removed.
import type { Logger } from '@destiny/platform';
import type { Client } from '@elastic/elasticsearch';
import type { AutomationRepository } from '../data-access/automation.repository';
import { deleteAutomations, ensurePercolatorIndex, indexedAutomationIds, putAutomations } from '../data-access/percolator-index';

export async function syncPercolatorIndex(deps: { es: Client; automations: AutomationRepository; logger: Logger }): Promise<{ stored: number; removed: number }> {
  await ensurePercolatorIndex(deps.es);
  const automations = await deps.automations.list();
  const refused = await putAutomations(deps.es, automations);
  // A recorded query the index no longer accepts matches nothing; it stays listed so it can be replaced.
  for (const [id, reason] of refused) deps.logger.error({ automation_id: id, reason }, 'the percolator index refused a recorded automation');
  const recorded = new Set(automations.map((automation) => automation.id));
  const orphans = (await indexedAutomationIds(deps.es)).filter((id) => !recorded.has(id));
  await deleteAutomations(deps.es, orphans);
  if (orphans.length > 0) deps.logger.info({ removed: orphans.length }, 'removed percolator queries without an automation record');
  return { stored: automations.length, removed: orphans.length };
}
