import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { callWebService } from '../../transport/request';
import type { ItemCall } from '../resource';

/** One item's user request, read and checked before anything is sent. */
export interface UserRequest {
	email: string;
	params: IDataObject;
}

/** Sends an addUser or editUser request; the output item carries the email it was about. */
export async function sendUserRequest(
	context: IExecuteFunctions,
	endpoint: 'addUser' | 'editUser',
	request: UserRequest,
	call: ItemCall,
): Promise<INodeExecutionData[]> {
	const result = await callWebService(context, endpoint, request.params, call);
	return [{ json: { ...result, email: request.email }, pairedItem: { item: call.itemIndex } }];
}
