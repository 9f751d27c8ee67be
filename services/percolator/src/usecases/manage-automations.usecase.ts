// Registering, replacing and listing automations (§13.1). MongoDB holds them; the percolator index
// validates each query against the §13.3 mapping when it is stored there, so a query is written
// to Elasticsearch first and recorded only once accepted (a crash in between leaves an index
// entry without a record, which the start-up sync removes).
import { RobotAutomationIn, uuidv7, validate, type RobotAutomation } from '@destiny/contracts';
import { ServiceError, type Logger, type RobotBrokerPort } from '@destiny/platform';
import type { Client } from '@elastic/elasticsearch';
import { assertNoQueryWrapper, duplicateAutomation, malformedQuery, type AutomationRecord } from '../domain/automation';
import { isDuplicateKeyError, type AutomationRepository } from '../data-access/automation.repository';
import { deleteAutomations, putAutomation, QueryRefusedError } from '../data-access/percolator-index';

export interface AutomationDeps {
  automations: AutomationRepository;
  es: Client;
  robots: Pick<RobotBrokerPort, 'robotExists'>;
  logger: Logger;
}

function parseBody(json: string): { robot_id: string; query: Record<string, unknown> } {
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    throw ServiceError.unprocessable([{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: json }]);
  }
  const result = validate(RobotAutomationIn, body, 'body');
  if (!result.ok) throw ServiceError.unprocessable(result.errors);
  return result.value as RobotAutomationIn;
}

function out(automation: AutomationRecord): RobotAutomation {
  return { robot_id: automation.robot_id, query: automation.query, id: automation.id };
}

export function createAutomationUsecases(deps: AutomationDeps) {
  async function checkRobot(robotId: string): Promise<void> {
    if (!(await deps.robots.robotExists(robotId))) throw ServiceError.unprocessable(`Robot with id ${robotId} does not exist.`);
  }

  async function store(automation: AutomationRecord): Promise<void> {
    try {
      await putAutomation(deps.es, automation);
    } catch (error) {
      if (error instanceof QueryRefusedError) throw malformedQuery(automation, error.errorType, error.reason);
      throw error;
    }
  }

  return {
    async create(json: string): Promise<RobotAutomation> {
      const body = parseBody(json);
      const automation: AutomationRecord = { id: uuidv7(), robot_id: body.robot_id, query: body.query };
      await checkRobot(automation.robot_id);
      assertNoQueryWrapper(automation);
      if (await deps.automations.findSame(automation.robot_id, automation.query)) throw duplicateAutomation(automation);
      await store(automation);
      try {
        await deps.automations.insert(automation);
      } catch (error) {
        // A concurrent registration of the same (robot, query) won: withdraw this one's query.
        await deleteAutomations(deps.es, [automation.id]).catch((cleanup: unknown) => deps.logger.warn({ err: cleanup, automation_id: automation.id }, 'could not withdraw a refused automation from the index'));
        if (isDuplicateKeyError(error)) throw duplicateAutomation(automation);
        throw error;
      }
      return out(automation);
    },

    async update(id: string, json: string): Promise<RobotAutomation> {
      const body = parseBody(json);
      const existing = await deps.automations.get(id);
      if (!existing) throw ServiceError.notFound('RobotAutomation', id);
      const automation: AutomationRecord = { id, robot_id: body.robot_id, query: body.query };
      await checkRobot(automation.robot_id);
      assertNoQueryWrapper(automation);
      const same = await deps.automations.findSame(automation.robot_id, automation.query);
      if (same && same.id !== id) throw duplicateAutomation(automation);
      await store(automation);
      try {
        if (!(await deps.automations.replace(automation))) throw ServiceError.notFound('RobotAutomation', id);
      } catch (error) {
        // The record keeps its previous query: put that back into the index.
        const current = await deps.automations.get(id);
        await (current ? putAutomation(deps.es, current) : deleteAutomations(deps.es, [id])).catch((cleanup: unknown) => deps.logger.warn({ err: cleanup, automation_id: id }, 'could not restore an automation in the index'));
        if (isDuplicateKeyError(error)) throw duplicateAutomation(automation);
        throw error;
      }
      return out(automation);
    },

    async get(id: string): Promise<RobotAutomation> {
      const automation = await deps.automations.get(id);
      if (!automation) throw ServiceError.notFound('RobotAutomation', id);
      return out(automation);
    },

    async list(): Promise<RobotAutomation[]> {
      return (await deps.automations.list()).map(out);
    },
  };
}

export type AutomationUsecases = ReturnType<typeof createAutomationUsecases>;
