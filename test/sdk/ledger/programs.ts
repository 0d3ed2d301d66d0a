// Test programs shared by the ledger suites.
export const APPROVAL = `
#pragma version 10
txn ApplicationID
bz create
txn OnCompletion
int OptIn
==
bnz optin
txn OnCompletion
int CloseOut
==
bnz ok
txn OnCompletion
int UpdateApplication
==
bnz admin
txn OnCompletion
int DeleteApplication
==
bnz admin
txna ApplicationArgs 0
byte "inc"
==
bnz inc
txna ApplicationArgs 0
byte "box"
==
bnz box
txna ApplicationArgs 0
byte "delbox"
==
bnz delbox
txna ApplicationArgs 0
byte "pay"
==
bnz pay
txna ApplicationArgs 0
byte "call"
==
bnz call
txna ApplicationArgs 0
byte "toomany"
==
bnz toomany
err
create:
byte "count"
int 0
app_global_put
b ok
optin:
txn Sender
byte "l"
int 7
app_local_put
b ok
admin:
txn Sender
global CreatorAddress
==
return
inc:
byte "count"
byte "count"
app_global_get
int 1
+
app_global_put
byte "inc"
log
b ok
box:
byte "b1"
txna ApplicationArgs 1
box_put
b ok
delbox:
byte "b1"
box_del
pop
b ok
pay:
itxn_begin
int pay
itxn_field TypeEnum
txn Sender
itxn_field Receiver
txna ApplicationArgs 1
btoi
itxn_field Amount
itxn_submit
b ok
call:
itxn_begin
int appl
itxn_field TypeEnum
txna Applications 1
itxn_field ApplicationID
byte "inc"
itxn_field ApplicationArgs
itxn_submit
b ok
toomany:
byte "a"
int 1
app_global_put
byte "b"
int 1
app_global_put
ok:
int 1
return
`;
export const CLEAR = '#pragma version 10\nint 1';
