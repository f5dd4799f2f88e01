import { describeEngine } from './sm-routes-lab.ts';

// /api/v1/route against OpenSM's minhop routes on ibsim: every host pair as ibtracert traces it.
describeEngine('minhop');
