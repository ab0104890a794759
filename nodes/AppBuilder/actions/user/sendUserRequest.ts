import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { WebServiceEndpoint } from '../../../shared/appBuilderApi';
import { callWebService } from '../../transport/request';
import type { ItemCall } from '../resource';

/** One item's user request, read and checked before anything is sent. */
export interface UserRequest {
	email: string;
	params: IDataObject;
}

/** A user operation's send (addUser, editUser); the output item carries the email it was about. */
export function userRequestSender(endpoint: WebServiceEndpoint) {
	return async function send(
		this: IExecuteFunctions,
		request: UserRequest,
		call: ItemCall,
	): Promise<INodeExecutionData[]> {
		const result = await callWebService(this, endpoint, request.params, call);
		return [{ json: { ...result, email: request.email }, pairedItem: { item: call.itemIndex } }];
	};
}
