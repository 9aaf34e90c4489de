/* Found only through -I%S/Inputs. */
#define FROM_HEADER 7
