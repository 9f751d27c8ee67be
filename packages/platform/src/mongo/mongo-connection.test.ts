import { clientDefaultsFor } from './mongo-connection';

describe('MongoDB client defaults', () => {
  it('when the connection string names no options, then the services\' defaults apply', () => {
    expect(clientDefaultsFor('mongodb://127.0.0.1:27017')).toEqual({ serverSelectionTimeoutMS: 10_000, maxPoolSize: 50 });
  });

  it('when the connection string names an option (in any case), then it is left to the connection string', () => {
    expect(clientDefaultsFor('mongodb://a:1,b:2/db?replicaSet=rs0&serverselectiontimeoutms=500')).toEqual({ maxPoolSize: 50 });
    expect(clientDefaultsFor('mongodb+srv://cluster.example.net/?maxPoolSize=5&serverSelectionTimeoutMS=2000')).toEqual({});
  });
});
